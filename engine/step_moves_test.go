package engine

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

func TestLongPipelineOfHoldingGatesCompletesInOneEvent(t *testing.T) {
	var stages []*lang.Stage
	for i := 1; i <= 40; i++ {
		next := fmt.Sprintf("g%d", i+1)
		if i == 40 {
			next = lang.TargetComplete
		}
		stages = append(stages, &lang.Stage{ID: fmt.Sprintf("g%d", i), Type: lang.StageGate, OnPass: next,
			Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}})
	}
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "long", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: stages}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.State.Runs, 1)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status, run.Message)
	assert.Equal(t, "g40", run.Stage)
	for i := 1; i <= 40; i++ {
		assert.Equal(t, model.StagePassed, run.Stages[fmt.Sprintf("g%d", i)].Status)
	}
}

func TestLoopThatNeverWaitsIsStopped(t *testing.T) {
	gate := func(id, next string) *lang.Stage {
		return &lang.Stage{ID: id, Type: lang.StageGate, OnPass: next, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}}
	}
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "spin", Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{gate("a", "b"), gate("b", "a")}}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "without waiting anywhere (at most 3)")
	assert.Equal(t, core.DefaultRevisits+1, run.Stages[run.Stage].Attempt)
}

func TestLoopRuleMaxIterationsBoundsRevisits(t *testing.T) {
	a := &lang.Stage{ID: "a", Type: lang.StageGate, OnPass: "b", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}}
	b := &lang.Stage{ID: "b", Type: lang.StageGate, OnPass: "a", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}}
	// c is never reached; its loop rule says a may be looped back to five times.
	c := &lang.Stage{ID: "c", Type: lang.StageAgent, Verdicts: map[string]*lang.Rule{lang.VerdictRevise: {Goto: "a", MaxIterations: 5, Then: lang.TargetFail}}}
	p := &lang.Pipeline{Name: "spin", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{a, b, c}}
	assert.Equal(t, 6, core.RevisitLimit(p, "a"))
	assert.Equal(t, core.DefaultRevisits, core.RevisitLimit(p, "b"))
	res := Step(&lang.Config{Version: 1, Pipelines: []*lang.Pipeline{p}}, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, `stage "b" was entered 4 times`)
}

// A loop through a gate that holds and an action that acts spins across the effect rounds
// of one event: the count of stages entered goes from Step to Settle, so it stops there too.
func TestLoopAcrossEffectRoundsIsStopped(t *testing.T) {
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "spin", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{
		{ID: "g", Type: lang.StageGate, OnPass: "say", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
		{ID: "say", Type: lang.StageAction, Action: lang.ActionComment, Config: lang.ActionConfig{Body: "again"}, OnSuccess: "g"},
	}}}}
	in := model.Input{Key: "k1", Event: "pull_request.opened"}
	res := Step(cfg, nil, in, prFacts("ok"), t0)
	rounds := 0
	for ; len(res.Effects) > 0 && rounds < 32; rounds++ {
		var outs []model.Outcome
		for _, eff := range res.Effects {
			outs = append(outs, model.Outcome{Key: eff.Key})
		}
		in.Visits = res.Visits
		res = Settle(cfg, res.State, in, outs, prFacts("ok"), t0)
	}
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, `stage "say" was entered 4 times in one event`)
	assert.Equal(t, core.DefaultRevisits, rounds, "one comment per round, three at most")

	// The next event starts counting anew.
	assert.Empty(t, Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("ok"), t0).Visits["spin/7/1\x00say"])
}
