package pipelineaction_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// modeline is the first line of a config that editors read the schema from.
const modeline = "# yaml-language-server: $schema=" + schemaID

// TestExamplesStartWithTheModeline: a config copied from an example brings the schema along.
func TestExamplesStartWithTheModeline(t *testing.T) {
	files, err := filepath.Glob("examples/*/pipelines*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	files = append(files, ".github/pipelines.yaml", "docs/setup/pipelines.yaml")
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		first, _, _ := strings.Cut(string(src), "\n")
		assert.Equal(t, modeline, first, "%s: the first line names the schema", f)
	}
}

// catalogEntry is the SchemaStore catalog entry docs/schemastore.md gives.
type catalogEntry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	FileMatch   []string `json:"fileMatch"`
	URL         string   `json:"url"`
}

func TestSchemaStoreCatalogEntry(t *testing.T) {
	doc, err := os.ReadFile("docs/schemastore.md")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)```json\n(.*?)\n```").FindSubmatch(doc)
	require.NotNil(t, block, "docs/schemastore.md shows the catalog entry as a json block")
	var entry catalogEntry
	dec := json.NewDecoder(strings.NewReader(string(block[1])))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&entry))

	raw, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	var top struct {
		ID string `json:"$id"`
	}
	require.NoError(t, json.Unmarshal(raw, &top))
	require.NotEmpty(t, top.ID, "the schema has an $id")
	assert.Equal(t, top.ID, entry.URL, "the catalog points at the schema's $id")
	assert.NotEmpty(t, entry.Name)
	assert.NotEmpty(t, entry.Description)

	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
	}
	src, err := os.ReadFile("action.yml")
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(src, &action))
	def := action.Inputs["config"].Default
	require.NotEmpty(t, def)
	assert.Contains(t, entry.FileMatch, def, "the action's default config is matched")
	assert.Contains(t, entry.FileMatch, strings.TrimSuffix(def, ".yaml")+".yml")

	// The modelines the docs show are the schema's $id too.
	for _, f := range []string{"README.md", "docs/language.md", "docs/schemastore.md"} {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Contains(t, string(src), modeline, f)
	}
}
