package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/cli"
	"github.com/org/pipeline-action/cmd/internal/runtest"
)

const root = "../.."

// TestImageLinksOnlyTheAction: the image's binary links neither the simulator, nor the
// fake GitHub, nor the standard library's test packages.
func TestImageLinksOnlyTheAction(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, string(out))
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/org/pipeline-action/cmd/internal/run", "the check means something only while the action is linked")
	for _, p := range deps {
		assert.False(t, strings.HasPrefix(p, "github.com/org/pipeline-action/cmd/internal/sim"), "links %s", p)
		assert.False(t, strings.HasPrefix(p, "github.com/org/pipeline-action/cmd/internal/ghfake"), "links %s", p)
	}
	for _, p := range []string{"testing", "net/http/httptest"} {
		assert.NotContains(t, deps, p)
	}
}

// Every command action.yml's `command` input names is one of the image's.
func TestImageRunsEveryCommandOfActionYML(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, "action.yml"))
	require.NoError(t, err)
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"inputs"`
	}
	require.NoError(t, yaml.Unmarshal(src, &action))
	image := map[string]bool{}
	for _, c := range cli.Action() {
		image[c.Name] = true
	}
	var named []string
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(action.Inputs["command"].Description, -1) {
		for _, c := range cli.CLI(nil, "") {
			if c.Name == m[1] {
				named = append(named, c.Name)
				assert.True(t, image[c.Name], "action.yml's command input names %s, which the image lacks", c.Name)
			}
		}
	}
	assert.Subset(t, named, []string{"run", "sweep", "report", "doctor"})
}

// The Dockerfile (main's action.yml), ko's config, the release workflow and its dry run
// all build this command for the image.
func TestTheImageBuildsThisCommand(t *testing.T) {
	for file, want := range map[string]string{
		"Dockerfile":                    " ./cmd/pipeline-action-image\n",
		".ko.yaml":                      "main: ./cmd/pipeline-action-image\n",
		".github/workflows/release.yml": "./cmd/pipeline-action-image)\n",
		".ci/release-dry-run":           "./cmd/pipeline-action-image)\n",
	} {
		src, err := os.ReadFile(filepath.Join(root, file))
		require.NoError(t, err)
		assert.Contains(t, string(src), want, file)
		assert.NotRegexp(t, `\./cmd/pipeline-action[^-]`, string(src), file)
	}
}

// TestImageBinary builds the binary as the image does and runs it: the version set
// with -X, and simulate refused with where to find it.
func TestImageBinary(t *testing.T) {
	bin := runtest.Build(t, ".", "v9.8.7-test")
	out, err := exec.Command(bin, "version").CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "v9.8.7-test\n", string(out))

	cmd := exec.Command(bin, "simulate", "../../examples/auto-merge")
	out, _ = cmd.CombinedOutput()
	assert.Equal(t, 2, cmd.ProcessState.ExitCode())
	assert.Contains(t, string(out), "simulate is a command of the CLI")

	cmd = exec.Command(bin, "validate", "../../engine/lang/load/testdata/err/bad_method.yaml")
	out, _ = cmd.CombinedOutput()
	assert.Equal(t, 1, cmd.ProcessState.ExitCode())
	assert.Contains(t, string(out), `did you mean "squash"?`)
}
