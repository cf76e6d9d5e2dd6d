package guardwalk

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/stage"
)

// a (gate) -> b (pipeline) -> complete, and a's on_fail to c (an agent) -> complete.
func walkPipeline() *lang.Pipeline {
	return &lang.Pipeline{Name: "p", Stages: []*lang.Stage{
		{ID: "a", Type: lang.StageGate, OnPass: "b", OnFail: "c"},
		{ID: "b", Type: lang.StagePipeline, Pipeline: "q", OnComplete: lang.TargetComplete},
		{ID: "c", Type: lang.StageAgent, OnComplete: lang.TargetComplete},
	}}
}

func TestPathsToTheEnd(t *testing.T) {
	p := walkPipeline()
	verdicts := func(v map[string]stage.Verdict) func(*lang.Stage) stage.Verdict {
		return func(s *lang.Stage) stage.Verdict { return v[s.ID] }
	}
	_, _, ok := Paths(p, nil, verdicts(map[string]stage.Verdict{"a": stage.Holds, "b": stage.Holds}))
	assert.True(t, ok, "a holds, b's sub-pipeline holds: the end is reached")
	_, frontier, ok := Paths(p, nil, verdicts(map[string]stage.Verdict{"a": stage.Holds, "b": stage.Stops}))
	assert.False(t, ok, "a sub-pipeline that does not hold stops the walk")
	assert.Equal(t, "b", frontier[0].ID)
	_, _, ok = Paths(p, nil, verdicts(map[string]stage.Verdict{"a": stage.Fails, "b": stage.Stops}))
	assert.True(t, ok, "a failing gate's on_fail leads to the end through a free agent")
	_, _, ok = Paths(p, p.Stages[2], verdicts(map[string]stage.Verdict{"a": stage.Stops}))
	assert.False(t, ok, "a gate that does not hold stops the walk to a merge")
}

func TestJoinHolds(t *testing.T) {
	par := &lang.Stage{ID: "r", Type: lang.StageParallel, Join: lang.JoinAll, Branches: []*lang.Stage{
		{ID: "x", Type: lang.StageAgent}, {ID: "y", Type: lang.StagePipeline}, {ID: "z", Type: lang.StagePipeline}}}
	never := func(*lang.Stage) bool { return false }
	always := func(*lang.Stage) bool { return true }
	only := func(id string) func(*lang.Stage) bool { return func(s *lang.Stage) bool { return s.ID == id } }
	assert.False(t, JoinHolds(par, never, never, only("y")), "join all: z's sub-pipeline does not hold")
	assert.True(t, JoinHolds(par, only("z"), never, only("y")), "z skipped: x and y are all that ran")
	assert.False(t, JoinHolds(par, never, only("x"), always), "x was skipped, and its condition may hold today: it never ran")
	assert.True(t, JoinHolds(par, only("x"), never, always), "x skipped, its condition still false: y and z are all that must hold")
	par.Join = lang.JoinAny
	assert.True(t, JoinHolds(par, never, never, never), "join any: the agent branch holds")
	assert.False(t, JoinHolds(par, never, only("x"), never), "join any: the agent branch never ran, and no sub-pipeline holds")
}
