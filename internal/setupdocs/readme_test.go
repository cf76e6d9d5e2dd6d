package setupdocs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// readmeSection is the text of the README's "## title" section, up to the next "## ".
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	text := string(src)
	start := strings.Index(text, "\n## "+title+"\n")
	require.GreaterOrEqual(t, start, 0, "the README has no section %q", title)
	rest := text[start+len(title)+5:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// tableRows maps each name in the first column of a Markdown table (several names in
// backticks may share a row) to the row's second column.
func tableRows(section string) map[string]string {
	rows := map[string]string{}
	name := regexp.MustCompile("`([a-z_]+)`")
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			rows[m[1]] = strings.Trim(strings.TrimSpace(cells[2]), "`")
		}
	}
	return rows
}

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]any `yaml:"outputs"`
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	require.NoError(t, err)
	var a actionFile
	require.NoError(t, yaml.Unmarshal(src, &a))
	require.NotEmpty(t, a.Inputs)
	return a
}

// The README's inputs table is action.yml's inputs, each with its default.
func TestReadmeInputsAreTheActions(t *testing.T) {
	a := readAction(t)
	rows := tableRows(readmeSection(t, "Inputs"))
	for name, in := range a.Inputs {
		def, ok := rows[name]
		if assert.True(t, ok, "the README's inputs table lacks %q", name) {
			assert.Equal(t, in.Default, def, "the default of %q", name)
		}
	}
	for name := range rows {
		_, ok := a.Inputs[name]
		assert.True(t, ok, "the README's inputs table names %q, which action.yml does not have", name)
	}
}

// The README's outputs table is action.yml's outputs.
func TestReadmeOutputsAreTheActions(t *testing.T) {
	a := readAction(t)
	var want []string
	for name := range a.Outputs {
		want = append(want, name)
	}
	var got []string
	for name := range tableRows(readmeSection(t, "Outputs")) {
		got = append(got, name)
	}
	slices.Sort(want)
	slices.Sort(got)
	assert.Equal(t, want, got)
}

// The README's permissions table names every scope the documented workflow grants.
func TestReadmePermissionsAreTheWorkflows(t *testing.T) {
	wf := read(t, "docs/setup/pipelines-nokey.yml")
	rows := regexp.MustCompile("(?m)^\\| `([a-z-]+): (read|write)` \\|").FindAllStringSubmatch(readmeSection(t, "Permissions"), -1)
	table := map[string]string{}
	for _, r := range rows {
		table[r[1]] = r[2]
	}
	for scope, level := range wf.Permissions {
		assert.Equal(t, level, table[scope], "the README's permissions table for %q", scope)
	}
}

// The README opens with the two commands that work on a fresh clone, and its contents list
// links every section.
func TestReadmeTryItAndContents(t *testing.T) {
	try := readmeSection(t, "Try it")
	assert.Contains(t, try, "go run ./cmd/pipeline-action simulate examples/auto-merge")
	assert.Contains(t, try, "go test ./... && go vet ./...")
	contents := readmeSection(t, "Contents")
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`(?m)^## (.+)$`).FindAllStringSubmatch(string(src), -1) {
		if m[1] == "Contents" {
			continue
		}
		slug := strings.ReplaceAll(strings.ToLower(m[1]), " ", "-")
		assert.Contains(t, contents, "(#"+slug+")", "the contents do not link %q", m[1])
	}
}
