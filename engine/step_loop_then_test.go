package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// The reference pipeline's `on_ci_failure: {goto: approval-gate, max_iterations: 2, then:
// escalate}`, with a gate that passes at once (its CI check is optional): every loop comes
// back in the same event, and after the last iteration its `then` applies. The engine's
// own guard against loops that never wait stops only loops the config does not bound.
func TestBoundedLoopEndsWithItsThen(t *testing.T) {
	rule := &lang.Rule{Goto: "ready", MaxIterations: 2, Then: lang.TargetEscalate}
	cfg := mergeConfig(nil, rule)
	red := prFacts("ok")
	red.PR.Checks = []model.CheckResult{{Name: "test", State: model.CheckFailure}}
	// The run stands at the merge when CI turns red: the merge stage is entered again on
	// each of the loops, once more than the guard lets a stage no loop leads to be entered.
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Equal(t, "ready", res.State.Runs[0].Stage)
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "check_run.completed"}, red, t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status, run.Message)
	assert.Equal(t, 2, run.Iterations["merge/on_ci_failure"])
	assert.NotContains(t, run.Message, "a loop that never waits")
}

// A loop the config does not bound is still stopped by the engine's guard.
func TestUnboundedLoopIsStillStopped(t *testing.T) {
	cfg := mergeConfig(nil, &lang.Rule{Goto: "ready"})
	red := prFacts("ok")
	red.PR.Checks = []model.CheckResult{{Name: "test", State: model.CheckFailure}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, red, t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "a loop that never waits was stopped")
}
