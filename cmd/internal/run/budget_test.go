package run

import (
	"encoding/json"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

const budgetConfig = `version: 1
agents:
  a: {dispatch: label, label: a-me}
  b: {dispatch: label, label: b-me}
  c: {dispatch: label, label: c-me}
pipelines:
  three:
    trigger: {event: pull_request.opened}
    stages:
      - {id: one, type: agent, agent: a, on_complete: two}
      - {id: two, type: agent, agent: b, on_complete: three}
      - {id: three, type: agent, agent: c}
`

// stateComment is the body of the action's state comment on #n.
// liveNonce is the nonce the dispatch of stage's live attempt gave its agent, as the state
// comment on #7 holds it (no state key: the nonce is sent unsigned).
func liveNonce(t *testing.T, h *harness, stage string) string {
	t.Helper()
	st, found, err := state.Decode(stateComment(t, h, 7))
	require.NoError(t, err)
	require.True(t, found)
	for _, r := range st.Runs {
		if sr := r.Stages[stage]; sr != nil && sr.Nonce != "" {
			return sr.Nonce
		}
	}
	t.Fatalf("no nonce for stage %s", stage)
	return ""
}

func stateComment(t *testing.T, h *harness, n int) string {
	t.Helper()
	for _, c := range h.Fake.Comments("acme/widgets", n) {
		if c.Author == ghfake.BotLogin && state.HasMarker(c.Body) {
			return c.Body
		}
	}
	t.Fatalf("no state comment on #%d", n)
	return ""
}

// Where the state branch may not be written, outputs stay in the comment; a report whose
// outputs would take its marker past the state's budget is refused with exit 1 and a
// reason the agent's job shows, nothing is written, and the stage takes a smaller report.
func TestReportOverBudgetIsRefused(t *testing.T) {
	h := newHarness(t, budgetConfig)
	h.Fake.RestrictBranch("acme/widgets", lang.DefaultStateBranch)
	h.OpenPR7()
	env := runtest.Command(h.Fake, h.Fake.BotToken())
	big := func(stage string) string {
		b, err := json.Marshal(map[string]any{"log": noise(stage, 16000)})
		require.NoError(t, err)
		return string(b)
	}
	for _, stage := range []string{"one", "two"} {
		code, out := reportOut(t, env, big(stage), "--run", "three/7/1", "--stage", stage, "--attempt", "1", "--nonce", liveNonce(t, h, stage), "--verdict", "complete", "--outputs", "-")
		require.Equal(t, 0, code, out)
	}
	before := stateComment(t, h, 7)
	require.Contains(t, before, "waiting at")

	code, out := reportOut(t, env, big("three"), "--run", "three/7/1", "--stage", "three", "--attempt", "1", "--nonce", liveNonce(t, h, "three"), "--verdict", "complete", "--outputs", "-")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "report complete for run three/7/1, stage three, attempt 1 refused: with its outputs (16010 bytes of JSON)")
	assert.Contains(t, out, "over its budget of 49152; nothing was recorded")
	assert.Equal(t, before, stateComment(t, h, 7), "nothing written")

	code, out = reportOut(t, env, `{"log": "https://example.com/log"}`, "--run", "three/7/1", "--stage", "three", "--attempt", "1", "--nonce", liveNonce(t, h, "three"), "--verdict", "complete", "--outputs", "-")
	require.Equal(t, 0, code, out)
	st, found, err := state.Decode(stateComment(t, h, 7))
	require.NoError(t, err)
	require.True(t, found)
	require.Len(t, st.Runs, 1)
	assert.Equal(t, model.RunCompleted, st.Runs[0].Status)
	assert.Equal(t, noise("one", 16000), st.Runs[0].Stages["one"].Outputs["log"], "inline in the comment")
}

// With a writable state branch the same reports fit: each large output is a file of the
// branch, named by its digest, and the state keeps the reference.
func TestReportLargeOutputsGoToFiles(t *testing.T) {
	h := newHarness(t, budgetConfig)
	h.OpenPR7()
	env := runtest.Command(h.Fake, h.Fake.BotToken())
	for _, stage := range []string{"one", "two", "three"} {
		b, err := json.Marshal(map[string]any{"log": noise(stage, 16000)})
		require.NoError(t, err)
		code, out := reportOut(t, env, string(b), "--run", "three/7/1", "--stage", stage, "--attempt", "1", "--nonce", liveNonce(t, h, stage), "--verdict", "complete", "--outputs", "-")
		require.Equal(t, 0, code, out)
	}
	runs := h.stateRuns(7)
	require.Len(t, runs, 1)
	assert.Equal(t, model.RunCompleted, runs[0].Status)
	ref := runs[0].Stages["one"].OutputsFile
	require.NotNil(t, ref, "the state file keeps a reference")
	assert.Nil(t, runs[0].Stages["one"].Outputs)
	assert.Equal(t, []string{"log"}, ref.Keys)
	files := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)
	assert.Equal(t, ref.Path, "outputs/pr-7/"+ref.Digest+".json")
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(files[ref.Path]), &got))
	assert.Equal(t, noise("one", 16000), got["log"])
	assert.Less(t, len(stateComment(t, h, 7)), 16<<10, "the comment holds references, not the outputs")
}
