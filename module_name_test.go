package pipelineaction_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The repository's name is written once, as go.mod's module path. When the repository
// gets its real path, change the module (`go mod edit -module`, and the imports), and
// this test names every other place that still says the old one: action.yml's author,
// the `uses:` lines of the docs, examples and workflows, the clone and image addresses.
func TestOneRepositoryName(t *testing.T) {
	module := modulePath(t)
	owner, name, ok := strings.Cut(strings.TrimPrefix(module, "github.com/"), "/")
	require.True(t, ok && strings.HasPrefix(module, "github.com/") && !strings.Contains(name, "/"),
		"go.mod's module %q is github.com/OWNER/NAME", module)

	action, err := os.ReadFile("action.yml")
	require.NoError(t, err)
	author := regexp.MustCompile(`(?m)^author: *(\S+) *$`).FindSubmatch(action)
	require.NotNil(t, author, "action.yml names its author")
	assert.Equal(t, owner, string(author[1]), "action.yml's author")

	// Every way the docs name this repository: an action step, a checkout, a clone, the
	// raw files, the image, the --repo of a command.
	named := regexp.MustCompile(`(?:\buses: |\brepository: |github\.com/|githubusercontent\.com/|ghcr\.io/|--repo )([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]*pipeline-action)\b`)
	found := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// GitHub's own recorded payloads name other repositories.
			if d.Name() == ".git" || path == filepath.Join("testdata", "github") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".md", ".yml", ".yaml", ".json", "":
		default:
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(text), "\n") {
			for _, m := range named.FindAllStringSubmatch(line, -1) {
				found++
				assert.Equal(t, owner+"/"+name, m[1]+"/"+m[2], "%s:%d names the repository otherwise than go.mod: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, found, 40, "the docs name the repository in many places; the pattern finds them")
}

// The docs give commands that work today: no `go install` or `go run` of the module by
// its path (which no proxy serves until the repository has its real path), no pre-commit
// `rev:` naming a tag that does not exist.
func TestInstallCommandsWork(t *testing.T) {
	module := modulePath(t)
	byPath := regexp.MustCompile(`go (?:install|run) ` + regexp.QuoteMeta(module) + `\S*@`)
	tag := regexp.MustCompile(`\brev: v\d`)
	for _, path := range []string{"README.md", "docs/setup.md", "docs/commands.md", ".pre-commit-hooks.yaml", "CONTRIBUTING.md"} {
		text, err := os.ReadFile(path)
		require.NoError(t, err)
		flat := strings.Join(strings.Fields(string(text)), " ") // a command may wrap
		assert.Empty(t, byPath.FindString(flat), "%s installs by module path", path)
		assert.Empty(t, tag.FindString(string(text)), "%s names a release tag for pre-commit, and none is tagged", path)
	}
	for _, path := range []string{"README.md", "docs/setup.md"} {
		text, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, strings.Contains(strings.Join(strings.Fields(string(text)), " "), "go install ./cmd/pipeline-action"), "%s installs from a clone", path)
	}
}

// modulePath is go.mod's module path.
func modulePath(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("go.mod")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^module\s+(\S+)\s*$`).FindSubmatch(src)
	require.NotNil(t, m, "go.mod has a module line")
	return string(m[1])
}
