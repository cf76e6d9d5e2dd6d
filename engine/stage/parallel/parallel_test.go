package parallel

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
agents:
  sec:  {dispatch: repository_dispatch, event_type: sec}
  tst:  {dispatch: repository_dispatch, event_type: tst}
  docs: {dispatch: repository_dispatch, event_type: docs}
pipelines:
  inner:
    trigger: {event: pull_request.opened}
    stages:
      - {id: check, type: agent, agent: sec, action: review}
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: review
        type: parallel
        join: all
        branches:
          - {id: security, agent: sec, action: review}
          - {id: tests, agent: tst, action: review, timeout: 1h}
          - {id: docs, agent: docs, action: review, condition: {paths_match: ["docs/**"]}}
        on_complete: ready
        on_any_reject: {goto: review, max_iterations: 2}
      - id: ready
        type: gate
        conditions: [{check: ci_status}]
  q:
    trigger: {event: pull_request.opened}
    stages:
      - id: review
        type: parallel
        join: any
        branches:
          - {id: security, agent: sec, action: review}
          - {id: tests, agent: tst, action: review, timeout: 1h}
          - {id: deep, type: pipeline, pipeline: inner}
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// started is a run of pipeline name at its parallel stage, its branches started.
func started(t *testing.T, name string) (*stagetest.Context, *model.Run, *lang.Stage) {
	t.Helper()
	p := stagetest.Load(t, src, name)
	run, par := stagetest.At(t, p, "review")
	c := stagetest.New(p, now)
	require.Equal(t, stage.Stay(), Start(c, run, par, nil, nil))
	return c, run, par
}

// verdicts makes StepBranch end the branches named as given: a status and a verdict.
func verdicts(c *stagetest.Context, run *model.Run, ends map[string][2]string) {
	c.Move = func(b *lang.Stage) {
		if e, ok := ends[b.ID]; ok {
			run.Stages[b.ID].Status, run.Stages[b.ID].Verdict = model.StageStatus(e[0]), e[1]
		}
	}
}

func TestStartsEveryBranchAtOnceAndWaitsForTheJoin(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, par := stagetest.At(t, p, "review")
	c := stagetest.New(p, now)
	c.Skip = map[string]bool{"docs": true}
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, par))

	for _, id := range []string{"security", "tests"} {
		bsr := run.Stages[id]
		assert.Equal(t, model.StageWaiting, bsr.Status, id)
		assert.Equal(t, 1, bsr.Attempt, id)
		assert.Equal(t, "review", bsr.Parent, id)
		assert.Equal(t, 1, bsr.ParentAttempt, id)
		assert.Equal(t, now, bsr.EnteredAt, id)
	}
	assert.Equal(t, model.StageSkipped, run.Stages["docs"].Status)
	assert.Contains(t, run.Stages["docs"].Message, "condition does not hold")
	assert.Equal(t, []model.Deadline{{Kind: model.DeadlineBranch, At: now.Add(time.Hour), Branch: "tests"}}, run.Stages["review"].Deadlines)
	assert.Equal(t, []string{"security", "tests"}, c.Stepped, "a skipped branch is not moved")
	assert.Equal(t, []string{"run p#1: stage review (attempt 1) starts branches security, tests; skipped (condition): docs"}, c.Log)

	assert.Equal(t, model.RunWaiting, run.Status)
	rs := run.Stages["review"].Results
	require.Len(t, rs, 3)
	assert.Equal(t, model.GatePending, rs[0].Status)
	assert.Equal(t, "agent sec", rs[0].Who)
	assert.Equal(t, model.GatePass, rs[2].Status)
	assert.True(t, rs[2].Optional, "a skipped branch")

	c.Stepped = nil
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, par))
	assert.Equal(t, 1, run.Stages["security"].Attempt, "the branches of an entry start once")
	assert.Equal(t, []string{"security", "tests"}, c.Stepped)
}

func TestJoinAllLeavesOnceEveryBranchSucceeded(t *testing.T) {
	c, run, par := started(t, "p")
	c.Skip = map[string]bool{}
	verdicts(c, run, map[string][2]string{"security": {"succeeded", "approve"}})
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, par), "tests and docs are open")

	verdicts(c, run, map[string][2]string{"tests": {"succeeded", "approve"}, "docs": {"succeeded", "complete"}})
	d := Type{}.Step(c, run, par)
	assert.Equal(t, stage.Leave(model.StageSucceeded, "ready", "join: all met: 3 of 3 branches succeeded"), d)
	assert.Empty(t, c.Forgotten, "no branch was open")
}

func TestJoinAnyCancelsTheOpenBranches(t *testing.T) {
	c, run, par := started(t, "q")
	verdicts(c, run, map[string][2]string{"security": {"succeeded", "approve"}})
	d := Type{}.Step(c, run, par)
	assert.Equal(t, stage.Leave(model.StageSucceeded, lang.TargetComplete, "join: any met: 1 of 3 branches succeeded"), d)
	assert.Equal(t, []string{"security", "tests", "deep"}, c.Stepped, "every open branch moves before the join")
	assert.Equal(t, []string{"tests", "deep"}, c.Forgotten)
	for _, id := range []string{"tests", "deep"} {
		assert.Equal(t, model.StageCancelled, run.Stages[id].Status, id)
		assert.Equal(t, "cancelled: join: any met: 1 of 3 branches succeeded", run.Stages[id].Message, id)
	}
	assert.Empty(t, run.Stages["review"].Deadlines, "the branches' timeouts go with them")
}

func TestJoinOutOfReach(t *testing.T) {
	c, run, par := started(t, "p")
	verdicts(c, run, map[string][2]string{"security": {"failed", "reject"}})
	d := Type{}.Step(c, run, par)
	why := "join: all can no longer be met: security rejected"
	assert.Equal(t, stage.FollowVerdict(par.OnAnyReject, RuleOnAnyReject, why), d, "a rejection follows on_any_reject")
	assert.Equal(t, []string{"tests", "docs"}, c.Forgotten)

	c, run, par = started(t, "p")
	verdicts(c, run, map[string][2]string{"security": {"failed", "failed"}, "tests": {"failed", "reject"}})
	d = Type{}.Step(c, run, par)
	why = "join: all can no longer be met: tests rejected; security failed"
	assert.Equal(t, stage.FollowVerdict(par.OnAnyReject, RuleOnAnyReject, why), d)

	c, run, par = started(t, "p")
	verdicts(c, run, map[string][2]string{"security": {"failed", "failed"}})
	d = Type{}.Step(c, run, par)
	why = "join: all can no longer be met: security failed"
	assert.Equal(t, stage.Leave(model.StageFailed, lang.TargetFail, why), d, "no branch rejected: the run fails")
	assert.Equal(t, why, run.Stages["review"].Message)

	c, run, par = started(t, "q")
	verdicts(c, run, map[string][2]string{"security": {"failed", "reject"}, "tests": {"failed", "failed"}})
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, par), "join any: deep may still succeed")
	assert.Empty(t, c.Forgotten)
}

func TestBranchesThatCannotStartStopTheRun(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	run, par := stagetest.At(t, p, "review")
	c := stagetest.New(p, now)
	c.CondErr = map[string]string{"docs": "no files"}
	d := Type{}.Step(c, run, par)
	assert.Equal(t, stage.Stop(`branch "docs" of stage "review": no files`), d)
	assert.Equal(t, model.StageFailed, run.Stages["docs"].Status)
	assert.Empty(t, c.Stepped)

	c, run, par = started(t, "p")
	c.Unsupported = map[lang.StageType]bool{lang.StageAgent: true}
	d = Type{}.Step(c, run, par)
	assert.Equal(t, stage.MoveStop, d.Move)
	assert.Contains(t, d.Why, `not supported yet: a agent branch (branch "security" of stage "review"`)
}

func TestMergeAllStopsBeforeTheBranches(t *testing.T) {
	c, run, par := started(t, "p")
	c.MergeStop = true
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, par))
	assert.Empty(t, c.Stepped)
	assert.Nil(t, run.Stages["review"].Results, "the join waits for the merges")
}

func TestBranchTimeoutFailsTheBranch(t *testing.T) {
	c, run, par := started(t, "p")
	d, handled := Type{}.Deadline(c, run, par, model.Deadline{Kind: model.DeadlineBranch, At: now.Add(time.Hour), Branch: "tests"})
	assert.True(t, handled)
	assert.Equal(t, stage.Stay(), d, "the join decides")
	assert.Equal(t, model.StageFailed, run.Stages["tests"].Status)
	assert.Equal(t, `branch "tests" timed out at 2026-11-28 10:00 UTC`, run.Stages["tests"].Message)
	assert.Empty(t, run.Stages["review"].Deadlines)

	_, handled = Type{}.Deadline(c, run, par, model.Deadline{Kind: model.DeadlineTimeout, At: now})
	assert.False(t, handled, "the stage's own timeout is the kernel's")
}

func TestRetryKeepsTheBranchesThatSucceeded(t *testing.T) {
	c, run, par := started(t, "p")
	run.Stages["security"].Status = model.StageSucceeded
	run.Stages["tests"].Status = model.StageFailed
	run.Stages["review"].Attempt++ // entered anew
	assert.Equal(t, stage.Stay(), Type{}.Retry(c, run, par))
	assert.Equal(t, model.StageSucceeded, run.Stages["security"].Status)
	assert.Equal(t, 1, run.Stages["security"].Attempt)
	assert.Equal(t, 2, run.Stages["security"].ParentAttempt, "kept for the new entry")
	assert.Equal(t, model.StageWaiting, run.Stages["tests"].Status)
	assert.Equal(t, 2, run.Stages["tests"].Attempt)
	assert.Contains(t, c.Log[len(c.Log)-1], "kept from the attempt before: security")
}

func TestUnblockRearmsTimeoutsAndStartsEndedChildrenAgain(t *testing.T) {
	c, run, par := started(t, "q")
	run.Stages["deep"].Child = "inner/7/1"
	run.Stages["deep"].Verdict = lang.VerdictReject
	run.Stages["review"].Deadlines = nil // escalating dropped them
	c.Runs = map[string]*model.Run{"inner/7/1": {ID: "inner/7/1", Status: model.RunCancelled}}
	c.T = now.Add(3 * time.Hour)
	Type{}.Unblock(c, run, par)
	deep := run.Stages["deep"]
	assert.Equal(t, 2, deep.Attempt)
	assert.Empty(t, deep.Child)
	assert.Empty(t, deep.Verdict)
	assert.Equal(t, c.T, deep.EnteredAt)
	assert.Equal(t, []model.Deadline{{Kind: model.DeadlineBranch, At: c.T.Add(time.Hour), Branch: "tests"}}, run.Stages["review"].Deadlines)

	c.Runs["inner/7/2"] = &model.Run{ID: "inner/7/2", Status: model.RunWaiting}
	deep.Child = "inner/7/2"
	Type{}.Unblock(c, run, par)
	assert.Equal(t, 2, deep.Attempt, "a child still running goes on")
	assert.Len(t, run.Stages["review"].Deadlines, 1, "a timeout is armed once")
}

func TestEnvShowsEveryBranch(t *testing.T) {
	c, run, par := started(t, "q")
	run.Stages["security"].Outputs = map[string]any{"feedback": "tighten"}
	run.Stages["deep"].Status, run.Stages["deep"].Verdict, run.Stages["deep"].Child = model.StageFailed, lang.VerdictRevise, "inner/7/1"
	c.Runs = map[string]*model.Run{"inner/7/1": {ID: "inner/7/1", Status: model.RunFailed, Stage: "check",
		Stages: map[string]*model.StageRun{"check": {Verdict: lang.VerdictRevise, Outputs: map[string]any{"feedback": "deeper"}}}}}
	env := Env(c, run)
	require.Len(t, env, len(par.Branches))
	sec, deep := env[0].(map[string]any), env[2].(map[string]any)
	assert.Equal(t, "security", sec["id"])
	assert.Equal(t, "waiting", sec["status"])
	assert.Equal(t, "sec", sec["agent"])
	assert.Equal(t, "tighten", sec["feedback"])
	assert.Equal(t, "inner", deep["pipeline"])
	assert.Equal(t, "deeper", deep["feedback"], "the rejecting child stage's feedback")

	c.Runs["inner/7/1"].Stages["check"].Verdict = lang.VerdictFailed
	assert.Nil(t, Env(c, run)[2].(map[string]any)["feedback"], "a child that did not reject gives none")

	run.Stage = "elsewhere"
	assert.Nil(t, Env(c, run), "only at a parallel stage")
}

func TestBranchesEndAndClose(t *testing.T) {
	c, run, par := started(t, "p")
	p := c.Pipeline()
	assert.True(t, IsBranch(p, run, par.Branches[1]))
	assert.False(t, IsBranch(p, run, par), "the parallel stage itself")
	run.Stages["tests"].Parent = "ready"
	assert.False(t, IsBranch(p, run, par.Branches[1]), "not on the record's word alone")
	run.Stages["tests"].Parent = "review"

	End(c, run, par.Branches[1], model.StageSucceeded, "approved")
	assert.Equal(t, model.StageSucceeded, run.Stages["tests"].Status)
	assert.Empty(t, run.Stages["review"].Deadlines, "its timeout goes with it")
	assert.Equal(t, model.StageSucceeded, VerdictStatus(lang.VerdictApprove))
	assert.Equal(t, model.StageFailed, VerdictStatus(lang.VerdictRevise))

	Close(c, run, "a person cancelled")
	assert.Equal(t, model.StageCancelled, run.Stages["security"].Status)
	assert.Equal(t, "cancelled: stage review was left (a person cancelled)", run.Stages["security"].Message)
	assert.Equal(t, model.StageSucceeded, run.Stages["tests"].Status, "an ended branch stays as it ended")
	assert.Equal(t, []string{"security", "docs"}, c.Forgotten)
}

func TestJoinNeed(t *testing.T) {
	all, anyOf, two := &lang.Stage{Join: lang.JoinAll}, &lang.Stage{Join: lang.JoinAny}, &lang.Stage{JoinCount: 2}
	assert.Equal(t, 3, JoinNeed(all, 3))
	assert.Equal(t, 1, JoinNeed(anyOf, 3))
	assert.Equal(t, 0, JoinNeed(anyOf, 0), "every branch skipped")
	assert.Equal(t, 2, JoinNeed(two, 3))
	assert.Equal(t, 1, JoinNeed(two, 1), "fewer ran than N")
}

func TestTheGuardRechecksTheJoin(t *testing.T) {
	p := stagetest.Load(t, src, "p")
	par := p.Stage("review")
	g := stagetest.Guard{Joins: stagetest.Joins{Joined: map[string]bool{"review": true}}}
	assert.Equal(t, stage.Holds, Type{}.Recheck(g, par))
	assert.True(t, Type{}.StillHolds(g, par, &model.StageRun{Status: model.StageSucceeded}))
	g.Broken = map[string]bool{"review": true}
	assert.False(t, Type{}.StillHolds(g, par, &model.StageRun{Status: model.StageSucceeded}), "a pipeline branch no longer holds")

	g = stagetest.Guard{Skipped: map[string]bool{"review": true}}
	assert.Equal(t, stage.Skips, Type{}.Recheck(g, par))
	assert.True(t, Type{}.StillHolds(g, par, &model.StageRun{Status: model.StageSkipped}))
	g = stagetest.Guard{}
	assert.Equal(t, stage.Stops, Type{}.Recheck(g, par))
	assert.False(t, Type{}.StillHolds(g, par, &model.StageRun{Status: model.StageSucceeded}))
	assert.True(t, Type{}.StillHolds(g, par, &model.StageRun{Status: model.StageFailed}), "a stage the run did not pass is not the guard's")
}
