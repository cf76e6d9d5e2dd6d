package ciscripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// systemWide is a command that installs into the system rather than a directory of the user's.
var systemWide = regexp.MustCompile(`\b(?:apt-get install|apt install|dpkg -i|sudo|brew install|pip3? install)\b`)

// No script of .ci installs anything system-wide: tools go into directories of the user's
// (Go's bin directory, the tools cache), and a message may only tell the user how to.
func TestScriptsInstallNothingSystemWide(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(root, ".ci", "*"))
	require.NoError(t, err)
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		require.NoError(t, err)
		for _, line := range strings.Split(string(b), "\n") {
			code := strings.TrimSpace(line)
			if strings.HasPrefix(code, "#") || strings.HasPrefix(code, "echo ") {
				continue
			}
			assert.NotRegexp(t, systemWide, code, "%s installs system-wide", filepath.Base(s))
		}
	}
}

// toolDir is a directory of links to the commands .ci/run's stages here need, with every
// name of leave left out, to be the whole PATH.
func toolDir(t *testing.T, leave ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"bash", "env", "go", "gofmt", "git", "tar", "mktemp", "python3", "readelf", "gzip",
		"sha256sum", "shellcheck", "sed", "sort", "head", "dirname", "chmod", "rm", "mkdir", "cat", "id", "basename"} {
		if strings.Contains(" "+strings.Join(leave, " ")+" ", " "+name+" ") {
			continue
		}
		path, err := exec.LookPath(name)
		if err != nil {
			// A stand-in: the stages these tests run never call it.
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\nexit 97\n"), 0o755))
			continue
		}
		require.NoError(t, os.Symlink(path, filepath.Join(dir, name)))
	}
	return dir
}

// ciRepo is a git repository holding .ci/run and .ci/lint-workflows, a module with the
// toolchain of go.mod, and files: a small checkout for .ci/run to test.
func ciRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".ci"), 0o755))
	for _, s := range []string{"run", "lint-workflows"} {
		b, err := os.ReadFile(filepath.Join(root, ".ci", s))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".ci", s), b, 0o755))
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	goLine := regexp.MustCompile(`(?m)^go \S+$`).Find(gomod)
	require.NotNil(t, goLine)
	files["go.mod"] = "module example.com/ci\n\n" + string(goLine) + "\n"
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=ci", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return dir
}

// runCI runs .ci/run of dir with PATH set to path and the given stages.
func runCI(t *testing.T, dir, path, stages string) (int, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(path, "bash"), ".ci/run")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path, "CI_STAGES="+stages, "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, string(out)
}

// A stage that fails does not stop the others: each runs, the end names every one that
// failed, and the exit status says so.
func TestCIRunRunsEveryStage(t *testing.T) {
	dir := ciRepo(t, map[string]string{
		"x.go": "package x\n\nimport \"fmt\"\n\nfunc  F() { fmt.Printf(\"%d\\n\", \"not a number\") }\n",
	})
	code, out := runCI(t, dir, toolDir(t), "gofmt vet")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "gofmt would change: x.go", out)
	assert.Contains(t, out, "ci: gofmt FAILED", out)
	assert.Contains(t, out, "fmt.Printf format %d has arg \"not a number\" of wrong type string", out, "vet ran after gofmt failed")
	assert.Contains(t, out, "ci: vet FAILED", out)
	assert.Contains(t, out, "ci: 0 passed, 2 failed: gofmt vet", out)

	clean := ciRepo(t, map[string]string{"x.go": "package x\n\n// F is x.\nfunc F() {}\n"})
	code, out = runCI(t, clean, toolDir(t), "gofmt vet")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "ci: 2 passed, 0 failed", out)
}

// A tool a stage needs that is missing is named before anything runs.
func TestCIRunNamesWhatItNeeds(t *testing.T) {
	dir := ciRepo(t, map[string]string{"x.go": "package x\n"})
	code, out := runCI(t, dir, toolDir(t, "python3", "readelf"), "gofmt")
	assert.Equal(t, 2, code, out)
	assert.Contains(t, out, "ci: python3 is needed and was not found on PATH", out)
	assert.Contains(t, out, "ci: readelf is needed and was not found on PATH", out)
	assert.NotContains(t, out, "go mod download", "nothing ran")
	assert.NotContains(t, out, "ci: gofmt", "nothing ran")
}

// The tests run with an explicit timeout per package, with room for a busy machine.
func TestCIRunSetsTheTestTimeout(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^stage test go test -race -timeout (\d+)m \./\.\.\.$`).FindSubmatch(b)
	require.NotNil(t, m, ".ci/run runs go test -race -timeout Nm ./...")
	minutes, err := strconv.Atoi(string(m[1]))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, minutes, 20, "go test's default of 10 minutes a package is too little on a busy machine")
}
