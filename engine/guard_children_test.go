package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// chainConfig: top runs mid as a pipeline stage, then merges; mid runs leaf, then waits at
// a gate on label "go"; leaf's only stage is a gate on label "green".
func chainConfig() *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{
		{Name: "top", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{
			{ID: "mid", Type: lang.StagePipeline, Pipeline: "mid", OnComplete: "merge"},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
		}},
		{Name: "mid", Stages: []*lang.Stage{
			{ID: "leaf", Type: lang.StagePipeline, Pipeline: "leaf", OnComplete: "go"},
			{ID: "go", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "go", Eval: labelCheck("go")}}},
		}},
		{Name: "leaf", Stages: []*lang.Stage{
			{ID: "green", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "green", Eval: labelCheck("green")}}},
		}},
	}}
}

// A grandchild's gate that no longer holds at the top run's merge: no merge, and the
// chain is taken back down to it — the same runs, at new attempts — not started anew.
func TestGuardRechecksTheChainBelow(t *testing.T) {
	cfg := chainConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("green"), t0)
	require.Len(t, res.State.Runs, 3)
	top, mid, leaf := runOf(res.State, "top/7/1"), runOf(res.State, "mid/7/1"), runOf(res.State, "leaf/7/1")
	require.Equal(t, model.RunCompleted, leaf.Status)
	require.Equal(t, "go", mid.Stage)

	// green is gone by the time mid's gate passes and top reaches its merge.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("go"), t0.Add(1))
	assert.Equal(t, 0, merges(res), "the grandchild's gate does not hold")
	require.Len(t, res.State.Runs, 3, "no run is started anew")
	top, mid, leaf = runOf(res.State, "top/7/1"), runOf(res.State, "mid/7/1"), runOf(res.State, "leaf/7/1")
	assert.Equal(t, "mid", top.Stage)
	assert.Equal(t, "leaf", mid.Stage)
	assert.Equal(t, model.RunWaiting, leaf.Status)
	assert.Equal(t, "green", leaf.Stage)
	assert.Equal(t, top.Stages["mid"].Attempt, mid.ParentAttempt, "mid is the child of top's new attempt")
	assert.Equal(t, mid.Stages["leaf"].Attempt, leaf.ParentAttempt, "leaf is the child of mid's new attempt")
	assert.Contains(t, top.History[len(top.History)-1].Why, `(run leaf/7/1) does not hold: gate "green" no longer holds`)

	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, prFacts("go", "green"), t0.Add(2))
	assert.Equal(t, 1, merges(res))
	assert.Len(t, res.State.Runs, 3)
}

// A state that puts a parent at its merge with its pipeline stage passed and no child at
// all grants nothing: the sub-pipeline is judged as written, on today's facts.
func TestGuardJudgesASubPipelineAsWritten(t *testing.T) {
	cfg := chainConfig()
	forged := &model.State{Version: 1, Runs: []*model.Run{{ID: "top/7/1", Pipeline: "top", ConfigOID: "blob1", Subject: "acme/widgets#7",
		Status: model.RunRunning, Stage: "merge", Stages: map[string]*model.StageRun{
			"mid":   {Status: model.StageSucceeded, Attempt: 1},
			"merge": {Status: model.StageWaiting, Attempt: 1}}}}}
	res := Step(cfg, forged, model.Input{Key: "k1", Event: "pull_request.labeled"}, prFacts("go"), t0)
	assert.Equal(t, 0, merges(res))
	top := runOf(res.State, "top/7/1")
	assert.Equal(t, "mid", top.Stage, "back to the pipeline stage, which starts its child")
	assert.NotNil(t, runOf(res.State, "mid/7/1"))

	// The same state on facts where everything below holds: the merge goes ahead.
	res = Step(cfg, &model.State{Version: 1, Runs: []*model.Run{{ID: "top/7/1", Pipeline: "top", ConfigOID: "blob1", Subject: "acme/widgets#7",
		Status: model.RunRunning, Stage: "merge", Stages: map[string]*model.StageRun{
			"mid":   {Status: model.StageSucceeded, Attempt: 1},
			"merge": {Status: model.StageWaiting, Attempt: 1}}}}}, model.Input{Key: "k1", Event: "pull_request.labeled"}, prFacts("go", "green"), t0)
	assert.Equal(t, 1, merges(res))
}

// skipConfig: stage "check" of type typ (a human stage or a gate on label "approved") is
// run only when the run's context says so; the merge follows.
func skipConfig(t *testing.T, typ lang.StageType) *lang.Config {
	e, cerr := lang.CompileExpr("context.risky == true", lang.Pos{Line: 1, Col: 1})
	require.Nil(t, cerr)
	s := &lang.Stage{ID: "check", Type: typ, Condition: &lang.Predicate{Expr: e}, SkipTo: "merge"}
	if typ == lang.StageHuman {
		s.WaitFor, s.Count, s.OnComplete = "approval", 1, "merge"
	} else {
		s.OnPass, s.Conditions = "merge", []lang.Condition{{Check: "approved", Eval: labelCheck("approved")}}
	}
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{s, {ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete}},
	}}}
}

// A stage skipped by a condition over the run's record (which the guard does not take for
// a skip) is not skipped again after the guard sent the run back to it: the run waits there
// for the stage to hold, rather than going round until the loop limit fails it.
func TestGuardSendsBackToAStageItMustHold(t *testing.T) {
	for _, typ := range []lang.StageType{lang.StageHuman, lang.StageGate} {
		t.Run(string(typ), func(t *testing.T) {
			res := Step(skipConfig(t, typ), nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
			assert.Equal(t, 0, merges(res))
			run := res.State.Runs[0]
			assert.Equal(t, model.RunWaiting, run.Status, run.Message)
			assert.Equal(t, "check", run.Stage)
			assert.NotContains(t, run.Message, "times in one event")
		})
	}
}

// A pipeline branch skipped by a condition over the run's record must hold at the merge:
// the run goes back to the parallel stage and runs the branch, rather than skipping it
// again until the loop limit fails the run; once its sub-pipeline holds, the merge goes
// ahead.
func TestGuardRunsABranchItMustHold(t *testing.T) {
	e, cerr := lang.CompileExpr("context.risky == true", lang.Pos{Line: 1, Col: 1})
	require.Nil(t, cerr)
	cfg := chainConfig()
	cfg.Pipelines[0].Stages[0] = &lang.Stage{ID: "review", Type: lang.StageParallel, Join: lang.JoinAll, OnComplete: "merge",
		Branches: []*lang.Stage{{ID: "leafy", Type: lang.StagePipeline, Pipeline: "leaf", Condition: &lang.Predicate{Expr: e}}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Equal(t, 0, merges(res))
	top := runOf(res.State, "top/7/1")
	require.NotNil(t, top)
	assert.Equal(t, model.RunWaiting, top.Status, top.Message)
	assert.Equal(t, "review", top.Stage)
	assert.Equal(t, model.StageWaiting, top.Stages["leafy"].Status)
	leaf := runOf(res.State, "leaf/7/1")
	require.NotNil(t, leaf, "the branch runs its sub-pipeline")
	assert.Equal(t, "green", leaf.Stage)

	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("green"), t0.Add(1))
	assert.Equal(t, 1, merges(res))
}
