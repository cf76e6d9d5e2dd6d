package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestPreCommitHook checks the hook of .pre-commit-hooks.yaml: pre-commit builds it with
// `go install ./...`, which names the binary after this directory; it runs on config
// files only, and validates the repository's whole config.
func TestPreCommitHook(t *testing.T) {
	src := runtest.Read(t, "../../.pre-commit-hooks.yaml")
	var hooks []struct {
		ID            string `yaml:"id"`
		Entry         string `yaml:"entry"`
		Language      string `yaml:"language"`
		Files         string `yaml:"files"`
		PassFilenames *bool  `yaml:"pass_filenames"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(src), &hooks))
	require.Len(t, hooks, 1)
	h := hooks[0]
	assert.Equal(t, "pipeline-action-validate", h.ID)
	assert.Equal(t, "golang", h.Language)
	require.NotNil(t, h.PassFilenames)
	assert.False(t, *h.PassFilenames, "the files of a config load together; one alone may show false mistakes")

	files := regexp.MustCompile(h.Files)
	for path, want := range map[string]bool{
		".github/pipelines.yaml":           true,
		".github/pipelines/extra.yaml":     true,
		".github/pipelines/a/b.yaml":       true,
		".github/pipelines.yml":            false,
		".github/pipelines/extra.yml":      false,
		".github/workflows/pipelines.yaml": false,
		"docs/.github/pipelines.yaml":      false,
		"pipelines.yaml":                   false,
		".github/pipelines.yaml.orig":      false,
	} {
		assert.Equal(t, want, files.MatchString(path), path)
	}

	entry := strings.Fields(h.Entry)
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.Equal(t, filepath.Base(wd), entry[0], "the binary go install makes")
	bin := filepath.Join(t.TempDir(), entry[0])
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))

	example := runtest.Read(t, "../../examples/auto-merge/pipelines.yaml")
	repo := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".github/pipelines"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".github/pipelines.yaml"), []byte(example), 0o644))
	hook := func() (int, string) {
		cmd := exec.Command(bin, entry[1:]...)
		cmd.Dir = repo // pre-commit runs hooks at the repository's root
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	code, out2 := hook()
	assert.Equal(t, 0, code, out2)
	assert.Equal(t, "checked .github/pipelines.yaml: 1 pipeline, 2 stages, no problems\n", out2)

	require.NoError(t, os.WriteFile(filepath.Join(repo, ".github/pipelines/extra.yaml"), []byte("pipelines:\n  p:\n    stages: [{id: a, type: action, action: merge_pr, config: {method: squish}}]\n"), 0o644))
	code, out2 = hook()
	assert.Equal(t, 1, code, out2)
	assert.Contains(t, out2, `.github/pipelines/extra.yaml:3:`)
	assert.Contains(t, out2, `did you mean "squash"?`)
}
