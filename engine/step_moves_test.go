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
