package ciscripts

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "../.."

var (
	// install is a command that installs something: a tool, a package, modules.
	install = regexp.MustCompile(`\b(?:go install|go mod download|go get|apt-get install|apt-get (?:-o \S+ )?download|apt install|pip3? install|npm install|npx |brew install|curl [^|]*\|\s*(?:ba)?sh)\b`)
	// announce is a line that says, before an install, what it installs.
	announce = regexp.MustCompile(`^\s*echo "[a-z-]+: installing \S.* into \S`)
	// workflows is the list of files .ci/lint-workflows hands actionlint.
	workflows = regexp.MustCompile(`(?m)^workflows=\(([^)]*)\)`)
)

// installsUnannounced lists the lines of a script that install something without the line
// before announcing it.
func installsUnannounced(script string) []string {
	lines := strings.Split(script, "\n")
	var out []string
	for i, line := range lines {
		code, _, _ := strings.Cut(line, " #")
		if strings.HasPrefix(strings.TrimSpace(code), "#") || strings.HasPrefix(strings.TrimSpace(code), "echo ") || !install.MatchString(code) {
			continue
		}
		if i == 0 || !announce.MatchString(lines[i-1]) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

func TestInstallsUnannounced(t *testing.T) {
	script := "#!/bin/sh\n# go install is a comment\necho \"x: installing y v1 into /bin (go install)\"\ngo install y@v1\napt-get install -y z\necho go mod download\n"
	assert.Equal(t, []string{"apt-get install -y z"}, installsUnannounced(script))
}

// Every script of .ci says what it installs, and where, before it installs it.
func TestScriptsSayBeforeTheyInstall(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(root, ".ci", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	installs := 0
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		require.NoError(t, err)
		installs += len(install.FindAllString(string(b), -1))
		for _, line := range installsUnannounced(string(b)) {
			t.Errorf("%s installs without saying so first: %s", filepath.Base(s), line)
		}
	}
	assert.GreaterOrEqual(t, installs, 3, "the scripts' installs are found: actionlint, shellcheck, the modules")
}

// .ci/lint-workflows lints every workflow of the repository: its own, and those the docs give
// users to copy (docs/*.yml, docs/setup/*.yml).
func TestLintWorkflowsCoversEveryWorkflow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, ".ci", "lint-workflows"))
	require.NoError(t, err)
	m := workflows.FindStringSubmatch(string(b))
	require.NotNil(t, m, "lint-workflows names its files in workflows=(…)")
	linted := map[string]bool{}
	for _, glob := range strings.Fields(m[1]) {
		if strings.HasPrefix(glob, `"$`) {
			continue // the files given on the command line
		}
		files, err := filepath.Glob(filepath.Join(root, glob))
		require.NoError(t, err)
		for _, f := range files {
			linted[filepath.ToSlash(f)] = true
		}
	}
	var all []string
	for _, dir := range []string{".github/workflows", "docs", "docs/setup"} {
		for _, ext := range []string{"*.yml", "*.yaml"} {
			files, err := filepath.Glob(filepath.Join(root, dir, ext))
			require.NoError(t, err)
			for _, f := range files {
				// A pipelines config shown beside the workflows is not a workflow.
				if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "\njobs:") {
					all = append(all, f)
				}
			}
		}
	}
	require.Greater(t, len(all), 5)
	for _, f := range all {
		assert.True(t, linted[filepath.ToSlash(f)], "lint-workflows does not lint %s", f)
	}
	for _, doc := range []string{"docs/setup/pipelines.yml", "docs/setup/sweep.yml", "docs/setup/pipelines-nokey.yml", "docs/setup/sweep-nokey.yml"} {
		assert.True(t, linted[root+"/"+doc], doc)
	}
}
