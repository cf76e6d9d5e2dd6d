package gate

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
)

const src = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: ci
        type: gate
        conditions: [{check: ci_status}, {check: lint, optional: true}]
        on_fail: fix
      - id: review
        type: gate
        conditions: [{check: ci_status}, {check: human_approved}]
        on_fail: {when: {check_failed: human_approved}, goto: fix, max_iterations: 2}
      - id: fix
        type: gate
        conditions: [{check: ci_status}]
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

func TestPassesOnTheHeadWhenItsConditionsHold(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, s := stagetest.At(t, p, "ci")
	c := stagetest.New(p, now)
	c.Results["ci"] = []model.GateResult{{Check: "ci_status", Status: model.GatePass}, {Check: "lint", Status: model.GateFail, Optional: true}}
	d := Type{}.Step(c, run, s)
	assert.Equal(t, stage.Leave(model.StagePassed, "review", "gate passed on abc1234"), d)
	assert.Equal(t, "abc1234def", run.VerifiedSHA)
	assert.Nil(t, run.Stages["ci"].Results, "a passed gate keeps its decision, not its checklist")
}

func TestWaitsOrFails(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, s := stagetest.At(t, p, "ci")
	c := stagetest.New(p, now)
	c.Results["ci"] = []model.GateResult{{Check: "ci_status", Status: model.GatePending}}
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, s))
	assert.Equal(t, model.StageWaiting, run.Stages["ci"].Status)
	assert.Len(t, run.Stages["ci"].Results, 1, "the checklist the status shows")

	c.Results["ci"] = []model.GateResult{{Check: "ci_status", Status: model.GateFail, Message: "test failed"}}
	d := Type{}.Step(c, run, s)
	assert.True(t, d.Leave)
	assert.Equal(t, model.StageFailed, d.Status)
	assert.Equal(t, "fix", d.Target)
}

func TestOnFailRuleFollowsOnlyForItsCheck(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, s := stagetest.At(t, p, "review")
	c := stagetest.New(p, now)
	c.Results["review"] = []model.GateResult{{Check: "ci_status", Status: model.GateFail, Message: "red"}}
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, s), "another check failed: the gate waits")

	c.Results["review"] = []model.GateResult{{Check: "human_approved", Status: model.GateFail, Message: "changes requested"}}
	d := Type{}.Step(c, run, s)
	assert.Same(t, s.OnFailRule, d.Rule)
	assert.Equal(t, model.RuleOnFail, d.RuleKind)
	assert.Equal(t, "gate failed: check human_approved failed: changes requested", d.Why)
}

func TestRecheck(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	s := p.Stage("ci")
	cases := []struct {
		g    stagetest.Guard
		want stage.Verdict
	}{
		{stagetest.Guard{Skipped: map[string]bool{"ci": true}}, stage.Skips},
		{stagetest.Guard{Held: map[string]bool{"ci": true}}, stage.Holds},
		{stagetest.Guard{Failed: map[string]bool{"ci": true}}, stage.Fails},
		{stagetest.Guard{}, stage.Stops},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Type{}.Recheck(tc.g, s))
	}
	passed := &model.StageRun{Status: model.StagePassed}
	assert.False(t, Type{}.StillHolds(stagetest.Guard{}, s, passed), "a gate passed that does not hold today")
	assert.True(t, Type{}.StillHolds(stagetest.Guard{Held: map[string]bool{"ci": true}}, s, passed))
	assert.True(t, Type{}.StillHolds(stagetest.Guard{}, s, &model.StageRun{Status: model.StageFailed}), "a gate the run did not pass is not the guard's to hold")
}
