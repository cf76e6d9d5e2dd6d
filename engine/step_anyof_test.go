package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func anyOfConfig(group ...lang.Condition) *lang.Config {
	return &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{
		{ID: "g", Type: lang.StageGate, OnPass: lang.TargetComplete, OnFail: lang.TargetFail,
			Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}},
			AnyOf:      [][]lang.Condition{group}},
	}}}}
}

func TestGateAnyOf(t *testing.T) {
	cfg := anyOfConfig(lang.Condition{Check: "approved", Eval: labelCheck("approved")}, lang.Condition{Check: "agents", Eval: labelCheck("agents-ok")})
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	run := res.State.Runs[0]
	require.Equal(t, model.RunWaiting, run.Status, "none of the group holds")
	results := run.Stages["g"].Results
	require.Len(t, results, 2)
	assert.Equal(t, model.GateResult{Check: "any_of(approved, agents)", Status: model.GatePending,
		Message: "one of these must hold: approved: needs approved; agents: needs agents-ok"}, results[1])

	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok", "agents-ok"), t0)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status, "one of the group is enough")
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("agents-ok"), t0)
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status, "the conditions outside the group still hold the gate")

	// Every member decidedly failed: the gate fails (on_fail).
	cfg = anyOfConfig(lang.Condition{Check: "a", Eval: failingOn("bad")}, lang.Condition{Check: "b", Eval: failingOn("bad")})
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok", "bad"), t0)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
}
