package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExamplesWithStateKey plays every example again with a state key: every state is
// signed and verified, and no outcome changes (agents' reports, sweeps, parallel and
// sub-pipelines, a deleted or refused state branch).
// testStateKey is the key the examples are played again with.
const testStateKey = "k3y-0f-the-action-9d2c51e0"

func TestExamplesWithStateKey(t *testing.T) {
	defaultStateKey = testStateKey
	t.Cleanup(func() { defaultStateKey = "" })
	for _, sf := range scenarioFiles(t, "../../../examples/*") {
		t.Run(sf.file, func(t *testing.T) {
			// defaultStateKey is set until the test ends, which waits for these.
			t.Parallel()
			out := mainPasses(t, "--scenario", sf.file, "-v", sf.dir)
			assert.NotContains(t, out, "was ignored", "every state the action wrote verifies")
			runtest.AssertMasked(t, strings.ReplaceAll(out, "   | ", ""), testStateKey)
		})
	}
}

// Every invocation without the key that finds the state signed — an event, a report, the
// sweep — fails with the error naming state_key, and the scenario shows that nothing was
// written (state-key-missing).
func TestStateKeyMissingStopsEveryInvocation(t *testing.T) {
	_, out, failed := playExample(t, "testdata/scenarios/state-key-missing", nil)
	require.Zero(t, failed, out)
	const stop = "::error::acme/widgets#7: the state of acme/widgets#7 (comment 5000000002; pr-7.json at commit "
	assert.Equal(t, 4, strings.Count(out, stop), out)
	assert.Equal(t, 4, strings.Count(out, "is signed with a state key, and this workflow was given none: give it the `state_key` input"))
	assert.NotContains(t, out, "was ignored", "nothing is ignored and started over")
}

// A state_key step that the action would refuse is a mistake in the scenario.
func TestStateKeyStepRefusesAnInvalidKey(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), mustRead(t, exampleConfig), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(`repo: acme/widgets
users: {dev: write}
steps:
  - state_key: {key: "", previous: [the-old-key-0123456789abcdef]}
expect:
  prs: {7: {merged: false}}
`), 0o600))
	code, out, errOut := simulate(t, dir)
	assert.Equal(t, 2, code, out)
	assert.Contains(t, errOut, "scenario.yaml:4:5: state_key: a previous state key is given without a current one")
}

// In a repository without a key, a state comment forged with a key of the forger's own
// stops the keyless action as a genuine signed state would (it cannot tell them apart):
// nothing is merged or written, and the error says to delete it.
func TestStateKeyForgedSignedStateStopsAKeylessAction(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(`repo: acme/widgets
config: `+filepath.Join(mustAbs(t, "../../../examples/agent-verdict-loop"), "pipelines.yaml")+`
users: {dev: write}
files:
  .github/workflows/agent-implement.yml: `+filepath.Join(mustAbs(t, "../../../examples/agent-verdict-loop"), "agent-implement.yml")+`
steps:
  - open_pr: {number: 7, author: dev}
  - label: {pr: 7, add: [agent-pipeline]}
  - state_branch: delete
  - edit_comment: {pr: 7, user: "github-actions[bot]", forge_state: {pipeline: loop, stage: merge, key: a-guessed-key-0123456789}, deliver: false}
  - label: {pr: 7, add: [unrelated]}
expect:
  prs: {7: {merged: false, comments: 1}}
  dispatches: [{agent: implementer, count: 1}]
  state_branch: {exists: false}
`), 0o600))
	code, out, errOut := simulate(t, dir)
	require.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, "is signed with a state key, and this workflow was given none")
	assert.Contains(t, out, "in a repository that uses no state key, no workflow of its own wrote that state: delete it to start the runs over")
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	require.NoError(t, err)
	return abs
}

// mustRead is the content of file.
func mustRead(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	return b
}
