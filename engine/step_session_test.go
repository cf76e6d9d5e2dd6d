package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func dispatchContext(t *testing.T, eff model.Effect) map[string]any {
	t.Helper()
	var ctx map[string]any
	require.NoError(t, json.Unmarshal([]byte(eff.Inputs["context"]), &ctx))
	return ctx
}

// continue_session: every attempt's dispatch says so; from the second on it names the
// session the stage's last report gave.
func TestContinueSessionWorkflow(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	cfg.Pipelines[0].Stages[0].ContinueSession = true
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	ctx := dispatchContext(t, res.Effects[0])
	assert.Equal(t, true, ctx["continue_session"])
	assert.NotContains(t, ctx, "session_id", "no report yet: no session to name")

	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, map[string]any{"session_id": "sess-42"}), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictRevise, nil), f, t0)
	var again *model.Effect
	for i, eff := range res.Effects {
		if eff.Stage == "implement" {
			again = &res.Effects[i]
		}
	}
	require.NotNil(t, again, "implement dispatched again")
	assert.Equal(t, "loop/7/1/implement/2/dispatch", again.Key)
	ctx = dispatchContext(t, *again)
	assert.Equal(t, true, ctx["continue_session"])
	assert.Equal(t, "sess-42", ctx["session_id"])

	// A stage without continue_session says nothing of sessions.
	plain := agentConfig(t, lang.DispatchWorkflow)
	res = Step(plain, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	ctx = dispatchContext(t, res.Effects[0])
	assert.NotContains(t, ctx, "continue_session")
}

// A comment dispatch ends with a line naming the session, made inert.
func TestContinueSessionComment(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchComment)
	cfg.Pipelines[0].Stages[1].ContinueSession = true
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0)
	require.Len(t, res.Effects, 1)
	assert.True(t, strings.HasSuffix(res.Effects[0].Body, "\n<sub>Continue your previous session.</sub>"), res.Effects[0].Body)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictFollowup, map[string]any{"session_id": "s-1 @admin `x`"}), f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 2, lang.VerdictComplete, nil), f, t0)
	require.Len(t, res.Effects, 1)
	assert.True(t, strings.HasSuffix(res.Effects[0].Body, "\n<sub>Continue your previous session (`` s-1 @admin `x` ``).</sub>"), res.Effects[0].Body)
}

// A label dispatch carries no session: the job log says so.
func TestContinueSessionLabel(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchLabel)
	cfg.Pipelines[0].Stages[1].ContinueSession = true
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, []string{"analyze-me"}, res.Effects[0].Labels)
	assert.Contains(t, joinLog(res.Log), "continue_session: a label dispatch carries no session")
}
