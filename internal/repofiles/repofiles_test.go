package repofiles

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

const root = "../.."

func read(t *testing.T, rel string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, rel))
	require.NoError(t, err)
	return src
}

func TestDependabotWatchesModulesActionsAndTheDockerfile(t *testing.T) {
	var cfg struct {
		Version int `yaml:"version"`
		Updates []struct {
			Ecosystem string `yaml:"package-ecosystem"`
			Directory string `yaml:"directory"`
			Schedule  struct {
				Interval string `yaml:"interval"`
			} `yaml:"schedule"`
		} `yaml:"updates"`
	}
	require.NoError(t, yaml.Unmarshal(read(t, ".github/dependabot.yml"), &cfg))
	assert.Equal(t, 2, cfg.Version)
	got := map[string]string{}
	for _, u := range cfg.Updates {
		got[u.Ecosystem] = u.Directory
		assert.NotEmpty(t, u.Schedule.Interval, u.Ecosystem)
	}
	want := map[string]string{"gomod": "/", "github-actions": "/"}
	if _, err := os.Stat(filepath.Join(root, "Dockerfile")); err == nil {
		want["docker"] = "/"
	}
	assert.Equal(t, want, got)
}

// An issue form GitHub accepts: a name, a description and a body of known element types,
// each input with a label and a unique id.
func TestIssueForms(t *testing.T) {
	forms, err := filepath.Glob(filepath.Join(root, ".github/ISSUE_TEMPLATE/*.yml"))
	require.NoError(t, err)
	require.Len(t, forms, 2)
	types := map[string]bool{"markdown": true, "textarea": true, "input": true, "dropdown": true, "checkboxes": true}
	for _, f := range forms {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		var form struct {
			Name        string `yaml:"name"`
			Description string `yaml:"description"`
			Body        []struct {
				Type       string         `yaml:"type"`
				ID         string         `yaml:"id"`
				Attributes map[string]any `yaml:"attributes"`
				Validation map[string]any `yaml:"validations"`
				Extra      map[string]any `yaml:",inline"`
			} `yaml:"body"`
		}
		require.NoError(t, yaml.Unmarshal(src, &form), f)
		assert.NotEmpty(t, form.Name, f)
		assert.NotEmpty(t, form.Description, f)
		require.NotEmpty(t, form.Body, f)
		ids := map[string]bool{}
		inputs := 0
		for _, el := range form.Body {
			assert.True(t, types[el.Type], "%s: element type %q", f, el.Type)
			assert.Empty(t, el.Extra, "%s: unknown keys", f)
			if el.Type == "markdown" {
				assert.NotEmpty(t, el.Attributes["value"], f)
				continue
			}
			inputs++
			assert.NotEmpty(t, el.Attributes["label"], "%s: %s has no label", f, el.ID)
			assert.NotEmpty(t, el.ID, f)
			assert.False(t, ids[el.ID], "%s: id %s twice", f, el.ID)
			ids[el.ID] = true
		}
		assert.Positive(t, inputs, f)
	}
	assert.Contains(t, string(read(t, ".github/pull_request_template.md")), "## How it is tested")
}

// Every repository path CONTRIBUTING.md names in backquotes exists, so that it cannot send
// a contributor to a file that moved.
func TestContributingNamesWhatExists(t *testing.T) {
	doc := string(read(t, "CONTRIBUTING.md"))
	path := regexp.MustCompile("`((?:\\.ci|\\.github|cmd|docs|engine|examples|gates|internal|state)/[A-Za-z0-9_./-]+)`")
	named := 0
	for _, m := range path.FindAllStringSubmatch(doc, -1) {
		p := m[1]
		if strings.ContainsAny(p, "<>*") {
			continue
		}
		named++
		_, err := os.Stat(filepath.Join(root, p))
		assert.NoError(t, err, "CONTRIBUTING.md names %s", p)
	}
	assert.Greater(t, named, 10)
	for _, cmd := range []string{
		"go run ./cmd/pipeline-action simulate examples/auto-merge",
		"go test ./... && go vet ./...",
		".ci/run",
		"docs/architecture.md",
	} {
		assert.Contains(t, doc, cmd)
	}
	assert.Contains(t, string(read(t, "README.md")), "(CONTRIBUTING.md)", "the README links it")
}
