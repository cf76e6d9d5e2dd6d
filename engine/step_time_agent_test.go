package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// An agent that does not report within its stage's timeout: on_timeout applies once its
// dispatch is done, and the late report, for an attempt the run has left, is refused.
func TestAgentStageTimeout(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	p := cfg.Pipelines[0]
	p.Stages[0].Timeout = 30 * time.Minute
	p.Stages[0].OnTimeout = &lang.Rule{Goto: "done"}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	require.Equal(t, "implement", res.State.Runs[0].Stage)
	assert.Equal(t, t0.Add(30*time.Minute), res.State.NextDeadline())

	late := tick(t, cfg, res.State, f, t0.Add(31*time.Minute))
	run := late.State.Runs[0]
	assert.Equal(t, "done", run.Stage)
	assert.Equal(t, model.StageFailed, run.Stages["implement"].Status)

	out := Step(cfg, late.State, reportOn(late.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(32*time.Minute))
	assert.False(t, out.Changed, "the report of an attempt the run has left changes nothing")
	assert.Equal(t, "done", out.State.Runs[0].Stage)
}
