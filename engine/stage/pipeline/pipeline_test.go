package pipeline

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `version: 1
pipelines:
  top:
    trigger: {event: pull_request.opened}
    stages:
      - {id: review, type: pipeline, pipeline: leaf, on_complete: merge}
      - {id: fan, type: parallel, join: all, branches: [{id: deep, type: pipeline, pipeline: leaf}]}
      - {id: merge, type: gate, conditions: [{check: ci_status}]}
  leaf: {stages: [{id: g, type: gate, conditions: [{check: ci_status}]}]}
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// child is a run of leaf standing at g as status says, its stage g recording sr.
func child(status model.RunStatus, sr *model.StageRun) *model.Run {
	return &model.Run{ID: "leaf/7/1", Pipeline: "leaf", Stage: "g", Status: status, Stages: map[string]*model.StageRun{"g": sr}}
}

func setup(t *testing.T, kid *model.Run) (*stagetest.Context, *model.Run, *lang.Stage) {
	t.Helper()
	p := stagetest.Load(t, src, "top")
	run, s := stagetest.At(t, p, "review")
	c := stagetest.New(p, now)
	c.Kid = map[string]*model.Run{}
	if kid != nil {
		c.Kid[s.ID] = kid
	}
	return c, run, s
}

func TestStepFollowsItsChild(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kid   *model.Run
		want  stage.Decision
		stage model.StageStatus
		run   model.RunStatus
		ended int
	}{
		{name: "completed: on to on_complete with the child's outputs",
			kid:  child(model.RunCompleted, &model.StageRun{Outputs: map[string]any{"k": "v"}}),
			want: stage.Leave(model.StageSucceeded, "merge", "sub-pipeline run leaf/7/1 completed"), stage: model.StageWaiting, run: model.RunRunning},
		{name: "failed: on_error",
			kid:  &model.Run{ID: "leaf/7/1", Stage: "g", Status: model.RunFailed, Message: "no", Stages: map[string]*model.StageRun{}},
			want: stage.Error("sub-pipeline run leaf/7/1 failed at g: no"), stage: model.StageWaiting, run: model.RunRunning},
		{name: "escalated: the child is ended and on_error applies",
			kid:  child(model.RunEscalated, &model.StageRun{}),
			want: stage.Error("sub-pipeline run leaf/7/1 escalated at g"), stage: model.StageWaiting, run: model.RunRunning, ended: 1},
		{name: "waiting: the stage waits for whom the child waits for",
			kid: child(model.RunWaiting, &model.StageRun{Results: []model.GateResult{
				{Check: "ci_status", Status: model.GatePending, Message: "running", Who: "CI"}}}),
			want: stage.Stay(), stage: model.StageWaiting, run: model.RunWaiting},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, run, s := setup(t, tc.kid)
			assert.Equal(t, tc.want, Type{}.Step(c, run, s))
			assert.Equal(t, tc.stage, run.Stages["review"].Status)
			assert.Equal(t, tc.run, run.Status)
			assert.Len(t, c.Ended, tc.ended)
		})
	}
}

func TestCompletedChildHandsItsOutputsByStage(t *testing.T) {
	c, run, s := setup(t, child(model.RunCompleted, &model.StageRun{Outputs: map[string]any{"k": "v"}}))
	run.Stages["review"].Errors = 2
	Type{}.Step(c, run, s)
	sr := run.Stages["review"]
	assert.Equal(t, map[string]any{"g": map[string]any{"k": "v"}}, sr.Outputs)
	assert.Zero(t, sr.Errors, "a completed child clears the errors its retries counted")
}

func TestWaitingChildShowsWhatItWaitsFor(t *testing.T) {
	c, run, s := setup(t, child(model.RunWaiting, &model.StageRun{Results: []model.GateResult{
		{Check: "ci_status", Status: model.GatePending, Message: "running", Who: "CI"}}}))
	Type{}.Step(c, run, s)
	sr := run.Stages["review"]
	assert.Equal(t, "sub-pipeline run leaf/7/1 is waiting at g: ci_status: running", sr.Message)
	require.Len(t, sr.Results, 1)
	assert.Equal(t, "CI", sr.Results[0].Who)
	assert.Equal(t, model.GatePending, sr.Results[0].Status)
}

func TestNoChild(t *testing.T) {
	c, run, s := setup(t, nil)
	c.NoKid = map[string]string{"review": "context \"x\" of stage \"review\": bad"}
	assert.Equal(t, stage.Error(c.NoKid["review"]), Type{}.Step(c, run, s), "a context that does not render: on_error")

	c.NoKid["review"], c.Fatal = "would nest 4 levels deep", map[string]bool{"review": true}
	assert.Equal(t, stage.Stop("would nest 4 levels deep"), Type{}.Step(c, run, s), "the nesting limit fails the run")
	assert.Equal(t, model.StageFailed, run.Stages["review"].Status)
}

func TestBranchFollowsItsChild(t *testing.T) {
	p := stagetest.Load(t, src, "top")
	run, par := stagetest.At(t, p, "fan")
	b := par.Branches[0]
	run.Stages[b.ID] = &model.StageRun{Attempt: 1, Status: model.StageWaiting, Parent: "fan", ParentAttempt: 1}
	c := stagetest.New(p, now)

	kid := child(model.RunFailed, &model.StageRun{Verdict: lang.VerdictRevise, Outputs: map[string]any{"feedback": "tests"}})
	c.Kid = map[string]*model.Run{b.ID: kid}
	assert.Equal(t, stage.Leave(model.StageFailed, "", "sub-pipeline run leaf/7/1 failed at g"), Type{}.Branch(c, run, b))
	assert.Equal(t, lang.VerdictRevise, run.Stages[b.ID].Verdict, "a rejecting child makes its branch rejected")
	assert.Equal(t, map[string]any{"g": map[string]any{"feedback": "tests"}}, run.Stages[b.ID].Outputs)

	kid = child(model.RunEscalated, &model.StageRun{})
	c.Kid[b.ID] = kid
	Type{}.Branch(c, run, b)
	assert.Equal(t, model.RunCancelled, kid.Status, "an escalated child is ended: the join decides")
	assert.Empty(t, run.Stages[b.ID].Verdict)

	c.Kid[b.ID] = child(model.RunRunning, &model.StageRun{})
	assert.Equal(t, stage.Stay(), Type{}.Branch(c, run, b))
	assert.Equal(t, "the sub-pipeline leaf", run.Stages[b.ID].Results[0].Who)
	assert.Equal(t, model.RunRunning, run.Status, "a branch leaves the run's status to its parallel stage")

	delete(c.Kid, b.ID)
	c.NoKid = map[string]string{b.ID: "bad context"}
	assert.Equal(t, stage.Leave(model.StageFailed, "", "bad context"), Type{}.Branch(c, run, b), "a branch has no on_error")
}

func TestGuardJudgesTheSubPipeline(t *testing.T) {
	p := stagetest.Load(t, src, "top")
	s := p.Stage("review")
	g := stagetest.Guard{Subs: stagetest.Subs{SubHeld: map[string]bool{}}}
	assert.Equal(t, stage.Stops, Type{}.Recheck(g, s))
	assert.False(t, Type{}.StillHolds(g, s, &model.StageRun{Status: model.StageSucceeded}))
	assert.True(t, Type{}.StillHolds(g, s, &model.StageRun{Status: model.StageWaiting}), "a stage not passed grants nothing to hold")
	g.SubHeld["review"] = true
	assert.Equal(t, stage.Holds, Type{}.Recheck(g, s))
	assert.True(t, Type{}.StillHolds(g, s, &model.StageRun{Status: model.StageSucceeded}))
	g = stagetest.Guard{Skipped: map[string]bool{"review": true}}
	assert.Equal(t, stage.Skips, Type{}.Recheck(g, s))
	kind, name := Type{}.Worker(s)
	assert.Equal(t, []string{"pipeline", "leaf"}, []string{kind, name})
}
