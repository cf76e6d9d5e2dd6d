package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// A report whose outputs do not match the stage's outputs_schema is the stage's error: its
// on_error retries it, the reason in the history; a report that matches moves on.
func TestReportOutputsMustMatchTheSchema(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	stage := cfg.Pipelines[0].Stages[0]
	stage.OnError = &lang.ErrorPolicy{Retry: 1, Then: lang.TargetEscalate}
	stage.OutputsSchema = lang.NewOutputsSchema(lang.Pos{}, func(v any) error {
		if m, _ := v.(map[string]any); m["risk"] == nil {
			return assert.AnError
		}
		return nil
	})
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)

	bad := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, map[string]any{"other": 1}), f, t0)
	run := bad.State.Runs[0]
	require.Equal(t, "implement", run.Stage)
	assert.Equal(t, 2, run.Stages["implement"].Attempt, "retried")
	assert.Nil(t, run.Stages["implement"].Outputs, "outputs that do not match are not kept")
	assert.Contains(t, run.History[len(run.History)-1].Why, "do not match outputs_schema")

	res = dispatched(t, cfg, bad, f, t0)
	good := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 2, lang.VerdictComplete, map[string]any{"risk": "low"}), f, t0)
	run = good.State.Runs[0]
	assert.NotEqual(t, "implement", run.Stage)
	assert.Equal(t, "low", run.Stages["implement"].Outputs["risk"])
}
