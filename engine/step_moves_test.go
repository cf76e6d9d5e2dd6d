package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLongPipelineOfHoldingGatesCompletesInOneEvent(t *testing.T) {
	var stages []*Stage
	for i := 1; i <= 40; i++ {
		next := fmt.Sprintf("g%d", i+1)
		if i == 40 {
			next = TargetComplete
		}
		stages = append(stages, &Stage{ID: fmt.Sprintf("g%d", i), Type: StageGate, OnPass: next,
			Conditions: []Condition{{Check: "ok", Eval: labelCheck("ok")}}})
	}
	cfg := &Config{Version: 1, Pipelines: []*Pipeline{{Name: "long", Trigger: Trigger{Event: "pull_request.opened"}, Stages: stages}}}
	res := Step(cfg, nil, Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Len(t, res.State.Runs, 1)
	run := res.State.Runs[0]
	assert.Equal(t, RunCompleted, run.Status, run.Message)
	assert.Equal(t, "g40", run.Stage)
	for i := 1; i <= 40; i++ {
		assert.Equal(t, StagePassed, run.Stages[fmt.Sprintf("g%d", i)].Status)
	}
}

func TestLoopThatNeverWaitsIsStopped(t *testing.T) {
	gate := func(id, next string) *Stage {
		return &Stage{ID: id, Type: StageGate, OnPass: next, Conditions: []Condition{{Check: "ok", Eval: labelCheck("ok")}}}
	}
	cfg := &Config{Version: 1, Pipelines: []*Pipeline{{Name: "spin", Trigger: Trigger{Event: "pull_request.opened"},
		Stages: []*Stage{gate("a", "b"), gate("b", "a")}}}}
	res := Step(cfg, nil, Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	run := res.State.Runs[0]
	assert.Equal(t, RunFailed, run.Status)
	assert.Contains(t, run.Message, "without waiting anywhere (at most 3)")
	assert.Equal(t, defaultRevisits+1, run.Stages[run.Stage].Attempt)
}

func TestLoopRuleMaxIterationsBoundsRevisits(t *testing.T) {
	a := &Stage{ID: "a", Type: StageGate, OnPass: "b", Conditions: []Condition{{Check: "ok", Eval: labelCheck("ok")}}}
	b := &Stage{ID: "b", Type: StageGate, OnPass: "a", Conditions: []Condition{{Check: "ok", Eval: labelCheck("ok")}}}
	// c is never reached; its loop rule says a may be looped back to five times.
	c := &Stage{ID: "c", Type: StageAgent, Verdicts: map[string]*Rule{VerdictRevise: {Goto: "a", MaxIterations: 5, Then: TargetFail}}}
	p := &Pipeline{Name: "spin", Trigger: Trigger{Event: "pull_request.opened"}, Stages: []*Stage{a, b, c}}
	assert.Equal(t, 6, revisitLimit(p, "a"))
	assert.Equal(t, defaultRevisits, revisitLimit(p, "b"))
	res := Step(&Config{Version: 1, Pipelines: []*Pipeline{p}}, nil, Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	run := res.State.Runs[0]
	assert.Equal(t, RunFailed, run.Status)
	assert.Contains(t, run.Message, `stage "b" was entered 4 times`)
}

// A loop through a gate that holds and an action that acts spins across the effect rounds
// of one event: the count of stages entered goes from Step to Settle, so it stops there too.
func TestLoopAcrossEffectRoundsIsStopped(t *testing.T) {
	cfg := &Config{Version: 1, Pipelines: []*Pipeline{{Name: "spin", Trigger: Trigger{Event: "pull_request.opened"}, Stages: []*Stage{
		{ID: "g", Type: StageGate, OnPass: "say", Conditions: []Condition{{Check: "ok", Eval: labelCheck("ok")}}},
		{ID: "say", Type: StageAction, Action: ActionComment, Config: ActionConfig{Body: "again"}, OnSuccess: "g"},
	}}}}
	in := Input{Key: "k1", Event: "pull_request.opened"}
	res := Step(cfg, nil, in, prFacts("ok"), t0)
	rounds := 0
	for ; len(res.Effects) > 0 && rounds < 32; rounds++ {
		var outs []Outcome
		for _, eff := range res.Effects {
			outs = append(outs, Outcome{Key: eff.Key})
		}
		in.Visits = res.Visits
		res = Settle(cfg, res.State, in, outs, prFacts("ok"), t0)
	}
	run := res.State.Runs[0]
	assert.Equal(t, RunFailed, run.Status)
	assert.Contains(t, run.Message, `stage "say" was entered 4 times in one event`)
	assert.Equal(t, defaultRevisits, rounds, "one comment per round, three at most")

	// The next event starts counting anew.
	assert.Empty(t, Step(cfg, res.State, Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("ok"), t0).Visits["spin/7/1\x00say"])
}
