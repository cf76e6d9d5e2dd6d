package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// An agent stage with a timeout and on_error but no on_timeout (the reference pipeline's
// `timeout: 30m` with `on_error: {retry: 1, then: escalate}`): a timeout is the stage's
// error, so it is retried once with a new attempt and then escalated, never failed.
func TestAgentTimeoutGoesThroughOnError(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	stage := cfg.Pipelines[0].Stages[0]
	stage.Timeout = 30 * time.Minute
	stage.OnError = &lang.ErrorPolicy{Retry: 1, Then: lang.TargetEscalate}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	require.Equal(t, "implement", res.State.Runs[0].Stage)

	first := tick(t, cfg, res.State, f, t0.Add(31*time.Minute))
	run := first.State.Runs[0]
	assert.Equal(t, "implement", run.Stage, "retried, not failed")
	assert.Equal(t, 2, run.Stages["implement"].Attempt)
	assert.Equal(t, 1, run.Stages["implement"].Errors)
	assert.NotEqual(t, model.RunFailed, run.Status)
	second := dispatched(t, cfg, first, f, t0.Add(31*time.Minute))
	assert.Equal(t, t0.Add(61*time.Minute), second.State.NextDeadline(), "the new attempt has its own timeout")

	late := tick(t, cfg, second.State, f, t0.Add(62*time.Minute))
	run = late.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status, "then: escalate once the retry is spent")
	assert.Contains(t, run.Message, "timed out")
}

// on_timeout, when the stage has one, wins over on_error.
func TestAgentOnTimeoutWinsOverOnError(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	stage := cfg.Pipelines[0].Stages[0]
	stage.Timeout = 30 * time.Minute
	stage.OnError = &lang.ErrorPolicy{Retry: 3, Then: lang.TargetEscalate}
	stage.OnTimeout = &lang.Rule{Goto: "done"}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	late := tick(t, cfg, res.State, f, t0.Add(31*time.Minute))
	assert.Equal(t, "done", late.State.Runs[0].Stage)
	assert.Equal(t, 0, late.State.Runs[0].Stages["implement"].Errors)
}
