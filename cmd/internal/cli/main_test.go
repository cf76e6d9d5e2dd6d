package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/sim"
)

// Main is the CLI users install, as cmd/pipeline-action runs it.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return Run(CLI(sim.Main, sim.Usage), args, stdin, stdout, stderr, getenv)
}

// commandUsage is the usage of each command of the CLI, by name.
var commandUsage = func() map[string]string {
	m := map[string]string{}
	for _, c := range CLI(sim.Main, sim.Usage) {
		m[c.Name] = c.Usage
	}
	return m
}()

func TestRunWithoutEventIsAUsageError(t *testing.T) {
	var buf bytes.Buffer
	code := Main([]string{"run"}, nil, &buf, &buf, func(string) string { return "" })
	assert.Equal(t, 2, code)
	assert.Contains(t, buf.String(), "GITHUB_EVENT_NAME")
}

func TestMainUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, Main(nil, nil, &out, &errOut, func(string) string { return "" }))
	assert.Contains(t, errOut.String(), "usage:")
	assert.Equal(t, 2, Main([]string{"frobnicate"}, nil, &out, &errOut, func(string) string { return "" }))
	assert.Contains(t, errOut.String(), `unknown command "frobnicate"`)
}

// The CLI's command list, as its users know it: every command in this order, with
// its flags and what it does.
const cliUsage = `usage: pipeline-action [command] [flags]

commands:
  run                     handle the event of GITHUB_EVENT_NAME (the default inside GitHub Actions)
  report --run ID --stage ID --attempt N --nonce N --verdict V [--outputs FILE] [--pr N]
                          report an agent's verdict back to its run
  sweep                   advance the runs whose deadline passed (on a schedule; reads index.json)
  simulate DIR            play DIR/scenario.yaml against DIR/pipelines.yaml on a fake GitHub
  simulate --config F --scenario S
  validate [PATH...] [--format text|github] [--strict]
                          check configs: files, or directories holding .github/pipelines.yaml
                          and/or .github/pipelines/*.yaml (default .)
  status [--repo OWNER/NAME] [--branch BRANCH]
                          list the open runs (index.json on the state branch)
  audit --pr N [--repo OWNER/NAME] [--format text|json]
                          print a pull request's (--issue: an issue's) whole trail of transitions
  stats [--repo OWNER/NAME] [--since 30d] [--format text|json|markdown]
                          report per pipeline: runs, time per stage, waiting, loops, errors
  explain --repo OWNER/NAME --pr N
                          print what every pipeline would do now on a live pull request (writes nothing)
  doctor [--repo OWNER/NAME] [--pr N]
                          check a live repository: config, token scopes, settings (writes nothing)
  graph [PATH] [--pipeline NAME]
                          print Mermaid flowcharts of the pipelines (default .)
  workflow [PATH] [--ci NAME,...]
                          print the on: block and the job's if: the config needs (default .)
  version                 print the version
  help [COMMAND]          print this, or the usage of COMMAND (as COMMAND --help does)

exit codes: 0 success, 1 failure (reported), 2 bad usage or input
`

func TestCLIUsage(t *testing.T) {
	var out bytes.Buffer
	assert.Equal(t, 0, Main([]string{"help"}, nil, &out, &out, func(string) string { return "" }))
	assert.Equal(t, cliUsage, out.String())
}

// The image's table is the CLI's without simulate and the tools for people; each of its
// commands is the CLI's own, and asking it for a command it lacks says where that is.
func TestActionCommands(t *testing.T) {
	var names []string
	for _, c := range Action() {
		names = append(names, c.Name)
		full, ok := find(CLI(sim.Main, sim.Usage), c.Name)
		require.True(t, ok, c.Name)
		assert.Equal(t, full.List, c.List, c.Name)
		assert.Equal(t, full.Usage, c.Usage, c.Name)
	}
	assert.Equal(t, []string{"run", "report", "sweep", "validate", "doctor", "version"}, names)

	var out, errOut bytes.Buffer
	getenv := func(string) string { return "" }
	assert.Equal(t, 0, Run(Action(), []string{"help"}, nil, &out, &errOut, getenv))
	assert.NotContains(t, out.String(), "simulate")
	assert.Contains(t, out.String(), "\n  doctor [--repo OWNER/NAME] [--pr N]\n")
	for _, args := range [][]string{{"simulate", "examples/auto-merge"}, {"help", "simulate"}} {
		errOut.Reset()
		assert.Equal(t, 2, Run(Action(), args, nil, &out, &errOut, getenv), "%v", args)
		assert.Contains(t, errOut.String(), `unknown command "simulate": simulate is a command of the CLI (go install github.com/org/pipeline-action/cmd/pipeline-action@latest), not of the action's image`, "%v", args)
	}
	errOut.Reset()
	assert.Equal(t, 2, Run(Action(), []string{"frobnicate"}, nil, &out, &errOut, getenv))
	assert.True(t, strings.HasPrefix(errOut.String(), "pipeline-action: unknown command \"frobnicate\"\n\n"), errOut.String())
}
