package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/internal/runtree"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// subConfig: pipeline "review-merge" (on opened) runs sub-pipeline "standard-review" (two
// agent stages) at its stage review, then waits at gate ready (label ok) and merges.
func subConfig(t testing.TB) *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{
			{Name: "security", Dispatch: lang.DispatchWorkflow, Workflow: "security.yml"},
			{Name: "quality", Dispatch: lang.DispatchWorkflow, Workflow: "quality.yml"},
		},
		Pipelines: []*lang.Pipeline{{
			Name:     "review-merge",
			Trigger:  lang.Trigger{Event: "pull_request.opened"},
			OnEvents: []lang.EventReaction{{Event: "pull_request.closed", Action: lang.ReactCancel}},
			Context: []lang.KeyValue{
				{Key: "pr_number", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ trigger.pull_request.number }}")}},
				{Key: "team", Value: lang.Value{Kind: lang.KindString, Scalar: "core"}},
			},
			Stages: []*lang.Stage{
				{ID: "review", Type: lang.StagePipeline, Pipeline: "standard-review", OnComplete: "ready",
					Context: []lang.KeyValue{{Key: "focus", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "pr-{{ context.pr_number }}")}}},
					OnError: &lang.ErrorPolicy{Retry: 1, Then: lang.TargetEscalate}},
				{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
				{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
			},
		}, {
			Name: "standard-review",
			Context: []lang.KeyValue{
				{Key: "focus", Value: lang.Value{Kind: lang.KindString, Scalar: "everything"}},
				{Key: "depth", Value: lang.Value{Kind: lang.KindString, Scalar: "full"}},
			},
			Variables: []lang.KeyValue{{Key: "about", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ context.focus }}")}}},
			Stages: []*lang.Stage{
				{ID: "security", Type: lang.StageAgent, Agent: "security", AgentAction: "review", OnComplete: "quality"},
				{ID: "quality", Type: lang.StageAgent, Agent: "quality", AgentAction: "review"},
			},
		}}}
}

func runOf(st *model.State, id string) *model.Run {
	for _, r := range st.Runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

const (
	parentID = "review-merge/7/1"
	childID  = "standard-review/7/1"
)

func TestSubPipelineStartsOneChildOnEntry(t *testing.T) {
	cfg := subConfig(t)
	f := prFacts()
	open := model.Input{Key: "k1", Event: "pull_request.opened"}
	res := Step(cfg, nil, open, f, t0)
	require.Len(t, res.State.Runs, 2)
	parent, child := runOf(res.State, parentID), runOf(res.State, childID)
	require.NotNil(t, parent)
	require.NotNil(t, child)
	assert.Equal(t, "review", parent.Stage)
	assert.Equal(t, childID, parent.Stages["review"].Child)
	assert.Equal(t, "review-merge/7/1/review", child.Parent)
	assert.Equal(t, 1, child.ParentAttempt)
	assert.Equal(t, 1, child.Depth)
	assert.Equal(t, "acme/widgets#7", child.Subject)
	assert.Empty(t, child.TriggerKey, "a child is not started by a trigger")
	assert.Equal(t, map[string]any{"pr_number": 7.0, "team": "core", "focus": "pr-7", "depth": "full"}, child.Context,
		"the child's own context, the parent's over it, the stage's over that")
	assert.Equal(t, map[string]any{"about": "pr-7"}, child.Variables, "its own pipeline's variables, over the context it was given")
	require.Len(t, res.Effects, 1)
	assert.Equal(t, childID+"/security/1/dispatch", res.Effects[0].Key)

	// The same event again, on the state before it was saved and after: one child only.
	again := Step(cfg, res.State, open, f, t0.Add(time.Second))
	assert.Len(t, again.State.Runs, 2)
	assert.Empty(t, again.Effects, "the dispatch is in flight")
	res = dispatched(t, cfg, res, f, t0)
	for i := range 3 {
		res = Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0.Add(time.Duration(i+2)*time.Minute))
		assert.Len(t, res.State.Runs, 2)
		assert.Empty(t, res.Effects)
	}
	// Another event of another kind does not start one either.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.synchronize"}, f, t0.Add(time.Hour))
	assert.Len(t, res.State.Runs, 2)
	assert.Equal(t, model.RunWaiting, runOf(res.State, parentID).Status)
	assert.Contains(t, runOf(res.State, parentID).Stages["review"].Message, "standard-review/7/1 is waiting at security")
}

func TestSubPipelineCompletesAndParentMovesOn(t *testing.T) {
	cfg := subConfig(t)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, childID, "security", 1, lang.VerdictApprove, map[string]any{"summary": "no findings"}), f, t0.Add(time.Minute))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, childID+"/quality/1/dispatch", res.Effects[0].Key)
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, childID, "quality", 1, lang.VerdictComplete, map[string]any{"score": 9}), f, t0.Add(2*time.Minute))

	child, parent := runOf(res.State, childID), runOf(res.State, parentID)
	assert.Equal(t, model.RunCompleted, child.Status)
	assert.Equal(t, "ready", parent.Stage, "the parent moved on in the same evaluation")
	assert.Equal(t, model.RunWaiting, parent.Status)
	assert.Equal(t, model.StageSucceeded, parent.Stages["review"].Status)
	assert.Equal(t, map[string]any{"security": map[string]any{"summary": "no findings"}, "quality": map[string]any{"score": 9.0}},
		parent.Stages["review"].Outputs)
	// The parent's templates read the child's outputs by child stage.
	tpl := agentTemplate(t, "{{ stages.review.outputs.security.summary }} / {{ stages.review.outputs.quality.score }}")
	out, err := tpl.Render(scope.Env(scopeKernel{newEval(cfg, res.State, f, t0, model.Input{})}, cfg.Pipelines[0], parent))
	require.NoError(t, err)
	assert.Equal(t, "no findings / 9", out)

	// The gate holds: the parent merges (its own gates justify it).
	f.PR.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, f, t0.Add(3*time.Minute))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectKind(lang.ActionMergePR), res.Effects[0].Kind)
	assert.Equal(t, parentID, res.Effects[0].Run)
}

func TestSubPipelineFailureTakesOnError(t *testing.T) {
	cfg := subConfig(t)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	fail := func(run string, at time.Time) model.Input {
		return model.Input{Key: "wf-" + run, Event: "workflow_run.completed", AgentFailure: ownRun(cfg, f, model.AgentFailure{Run: run, Stage: "security", Attempt: 1, Why: "workflow failed"})}
	}
	res = Step(cfg, res.State, fail(childID, t0), f, t0.Add(time.Minute))
	assert.Equal(t, model.RunFailed, runOf(res.State, childID).Status)
	parent := runOf(res.State, parentID)
	assert.Equal(t, "review", parent.Stage)
	assert.Equal(t, 2, parent.Stages["review"].Attempt, "retry: a new attempt")
	second := runOf(res.State, "standard-review/7/2")
	require.NotNil(t, second, "a new attempt starts a new child")
	assert.Equal(t, 2, second.ParentAttempt)
	assert.Equal(t, "standard-review/7/2", parent.Stages["review"].Child)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "standard-review/7/2/security/1/dispatch", res.Effects[0].Key)
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))

	// The retry is spent: the parent escalates (then: escalate).
	res = Step(cfg, res.State, fail("standard-review/7/2", t0), f, t0.Add(2*time.Minute))
	parent = runOf(res.State, parentID)
	assert.Equal(t, model.RunEscalated, parent.Status)
	assert.Contains(t, parent.Message, "standard-review/7/2 failed at security")
	assert.Len(t, res.State.Runs, 3)
}

func TestSubPipelineEscalationGoesToParent(t *testing.T) {
	cfg := subConfig(t)
	cfg.Pipelines[1].Stages[0].Verdicts = map[string]*lang.Rule{lang.VerdictReject: {Goto: lang.TargetEscalate}}
	cfg.Pipelines[0].Stages[0].OnError = &lang.ErrorPolicy{Then: "ready"}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, childID, "security", 1, lang.VerdictReject, nil), f, t0.Add(time.Minute))
	child, parent := runOf(res.State, childID), runOf(res.State, parentID)
	assert.Equal(t, model.RunCancelled, child.Status, "an escalated child hands its escalation to the parent and ends")
	assert.Equal(t, "ready", parent.Stage, "the parent's on_error target")
	assert.Equal(t, model.StageFailed, parent.Stages["review"].Status)
}

func TestSubPipelineCancelledWithParent(t *testing.T) {
	cfg := subConfig(t)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	f.PR.State = model.PRClosed
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.closed"}, f, t0.Add(time.Minute))
	assert.Equal(t, model.RunCancelled, runOf(res.State, parentID).Status)
	child := runOf(res.State, childID)
	assert.Equal(t, model.RunCancelled, child.Status, "the standard-review pipeline has no on_events of its own")
	assert.Contains(t, child.Message, "parent run review-merge/7/1 is cancelled")
	assert.Empty(t, res.Effects)
}

func TestSubPipelineChildCancelledByItsOwnReactionDoesNotHangParent(t *testing.T) {
	cfg := subConfig(t)
	cfg.Pipelines[1].OnEvents = []lang.EventReaction{{Event: "pull_request.labeled", Action: lang.ReactCancel}}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, f, t0.Add(time.Minute))
	assert.Equal(t, model.RunCancelled, runOf(res.State, childID).Status)
	parent := runOf(res.State, parentID)
	assert.Equal(t, 2, parent.Stages["review"].Attempt, "on_error retries with a new child")
	assert.NotNil(t, runOf(res.State, "standard-review/7/2"))
}

func TestSubPipelineParentTimeoutCancelsChild(t *testing.T) {
	cfg := subConfig(t)
	cfg.Pipelines[0].Stages[0].Timeout = time.Hour
	cfg.Pipelines[0].Stages[0].OnTimeout = &lang.Rule{Goto: lang.TargetFail}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	assert.Equal(t, t0.Add(time.Hour), res.State.NextDeadline())
	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "sweep"}, f, t0.Add(2*time.Hour))
	assert.Equal(t, model.RunFailed, runOf(res.State, parentID).Status)
	assert.Equal(t, model.RunCancelled, runOf(res.State, childID).Status)
}

func TestSubPipelineChildDeadlineActedOn(t *testing.T) {
	cfg := subConfig(t)
	cfg.Pipelines[1].Stages[0].Timeout = 30 * time.Minute
	cfg.Pipelines[1].Stages[0].OnTimeout = &lang.Rule{Goto: lang.TargetFail}
	cfg.Pipelines[0].Stages[0].OnError = &lang.ErrorPolicy{Then: lang.TargetFail}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	assert.Equal(t, t0.Add(30*time.Minute), res.State.NextDeadline(), "the child's deadline is the subject's next")
	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "sweep"}, f, t0.Add(31*time.Minute))
	assert.Equal(t, model.RunFailed, runOf(res.State, childID).Status)
	parent := runOf(res.State, parentID)
	assert.Equal(t, model.RunFailed, parent.Status)
	assert.Contains(t, parent.Message, "standard-review/7/1 failed at security")
}

func TestSubPipelineNestingLimitAtRunTime(t *testing.T) {
	cfg := subConfig(t)
	cfg.Settings.MaxNesting = 1
	// standard-review runs a third pipeline: two levels below review-merge.
	cfg.Pipelines[1].Stages = []*lang.Stage{{ID: "inner", Type: lang.StagePipeline, Pipeline: "leaf"}}
	cfg.Pipelines = append(cfg.Pipelines, &lang.Pipeline{Name: "leaf", Stages: []*lang.Stage{{ID: "g", Type: lang.StageGate, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}}}})
	cfg.Pipelines[0].Stages[0].OnError = &lang.ErrorPolicy{Then: lang.TargetFail}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	child := runOf(res.State, childID)
	require.NotNil(t, child)
	assert.Equal(t, model.RunFailed, child.Status)
	assert.Contains(t, child.Message, "more than settings.max_nesting (1)")
	assert.Len(t, res.State.Runs, 2, "no run of leaf")
	assert.Equal(t, model.RunFailed, runOf(res.State, parentID).Status)
}

func TestSubPipelineWithoutTriggerNeverStartsAlone(t *testing.T) {
	cfg := subConfig(t)
	cfg.Pipelines = cfg.Pipelines[1:] // standard-review alone
	f := prFacts("ok")
	var st *model.State
	for i, ev := range []string{"pull_request.opened", "pull_request.labeled", "pull_request.synchronize", "sweep", "status"} {
		res := Step(cfg, st, model.Input{Key: ev, Event: ev}, f, t0.Add(time.Duration(i)*time.Minute))
		assert.Empty(t, res.State.Runs, ev)
		st = res.State
	}
}

func TestSubPipelineCommandsActOnInnermostRun(t *testing.T) {
	cfg := subConfig(t)
	f := prFacts()
	f.People.Permissions = map[string]string{"alice": "write"}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)

	f.PR.Comments = []model.IssueComment{command(1, "alice", "/pipeline retry")}
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, t0.Add(time.Minute))
	assert.Equal(t, 2, runOf(res.State, childID).Stages["security"].Attempt, "retry acts on the child's stage")
	assert.Equal(t, 1, runOf(res.State, parentID).Stages["review"].Attempt, "not on the parent's")
	assert.Len(t, res.State.Runs, 2)
	res = settleAll(t, cfg, res, f, t0.Add(time.Minute))

	f.PR.Comments = append(f.PR.Comments, command(2, "alice", "/pipeline skip"))
	res = Step(cfg, res.State, model.Input{Key: "c2", Event: "issue_comment.created"}, f, t0.Add(2*time.Minute))
	assert.Equal(t, "quality", runOf(res.State, childID).Stage, "skip moves the child on")
	assert.Equal(t, "review", runOf(res.State, parentID).Stage)
	res = settleAll(t, cfg, res, f, t0.Add(2*time.Minute))

	f.PR.Comments = append(f.PR.Comments, command(3, "alice", "/pipeline cancel"))
	res = Step(cfg, res.State, model.Input{Key: "c3", Event: "issue_comment.created"}, f, t0.Add(3*time.Minute))
	assert.Equal(t, model.RunCancelled, runOf(res.State, parentID).Status, "cancel cancels every run")
	assert.Equal(t, model.RunCancelled, runOf(res.State, childID).Status)
}

// mergeChildConfig: "outer" (on opened) waits at gate approved (label approved), then runs
// "inner", whose only stages are a gate on label ok and a merge.
func mergeChildConfig() *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name:    "outer",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{
			{ID: "approved", Type: lang.StageGate, OnPass: "land", Conditions: []lang.Condition{{Check: "approved", Eval: labelCheck("approved")}}},
			{ID: "land", Type: lang.StagePipeline, Pipeline: "inner"},
		},
	}, {
		Name: "inner",
		Stages: []*lang.Stage{
			{ID: "ok", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
		},
	}}}
}

func TestSubPipelineMergeInChildNeedsBothGates(t *testing.T) {
	cfg := mergeChildConfig()
	f := prFacts("approved", "ok")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	m := mergeEffects(res.Effects)
	require.Len(t, m, 1, "both gates hold: the child merges")
	assert.Equal(t, "inner/7/1", m[0].Run)
}

func TestSubPipelineMergeCannotSkipParentGate(t *testing.T) {
	cfg := mergeChildConfig()
	f := prFacts("approved", "ok")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, mergeEffects(res.Effects), 1)
	// The merge did not happen; later the parent's gate no longer holds (its label was
	// removed), while the stored state has the child at its merge.
	f.PR.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(model.MaxIntentLease+time.Hour))
	assert.Empty(t, mergeEffects(res.Effects), "a merge in the child needs the parent's gate")
	parent := runOf(res.State, "outer/7/1")
	assert.Equal(t, "approved", parent.Stage, "the parent goes back to its gate")
	assert.Equal(t, model.RunCancelled, runOf(res.State, "inner/7/1").Status)

	// A forged state: the parent stands at land without ever passing its gate, and the
	// child at its merge.
	forged := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{
		{ID: "outer/7/1", Pipeline: "outer", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "land", StartedAt: t0, TriggerKey: "k1",
			Stages: map[string]*model.StageRun{"land": {Status: model.StageWaiting, Attempt: 1, Child: "inner/7/1"}}},
		{ID: "inner/7/1", Pipeline: "inner", Subject: "acme/widgets#7", Status: model.RunRunning, Stage: "merge", StartedAt: t0,
			Parent: "outer/7/1/land", ParentAttempt: 1, Depth: 1, VerifiedSHA: f.PR.HeadSHA, VerifiedBy: "ok",
			Stages: map[string]*model.StageRun{"ok": {Status: model.StagePassed, Attempt: 1}, "merge": {Status: model.StageWaiting, Attempt: 1}}},
	}}
	res = Step(cfg, forged, model.Input{Key: "k3", Event: "status"}, f, t0.Add(time.Minute))
	assert.Empty(t, mergeEffects(res.Effects))
	assert.Equal(t, "approved", runOf(res.State, "outer/7/1").Stage)

	// A forged run of the trigger-less pipeline alone, at its merge: refused.
	lone := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{forged.Runs[1]}}
	lone.Runs[0].Parent = ""
	res = Step(cfg, lone, model.Input{Key: "k4", Event: "status"}, f, t0.Add(time.Minute))
	assert.Empty(t, mergeEffects(res.Effects))
	assert.Contains(t, runOf(res.State, "inner/7/1").Stages["merge"].Results[0].Message, "has no parent run")

	// A forged parent link to a stage that does not run the child's pipeline: refused.
	wrong := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{
		{ID: "outer/7/1", Pipeline: "outer", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "approved", StartedAt: t0, TriggerKey: "k1",
			Stages: map[string]*model.StageRun{"approved": {Status: model.StageWaiting, Attempt: 1, Child: "inner/7/1"}}},
		{ID: "inner/7/1", Pipeline: "inner", Subject: "acme/widgets#7", Status: model.RunRunning, Stage: "merge", StartedAt: t0,
			Parent: "outer/7/1/approved", ParentAttempt: 1, Depth: 1,
			Stages: map[string]*model.StageRun{"merge": {Status: model.StageWaiting, Attempt: 1}}},
	}}
	res = Step(cfg, wrong, model.Input{Key: "k5", Event: "status"}, f, t0.Add(time.Minute))
	assert.Empty(t, mergeEffects(res.Effects))
}

func TestSubPipelineParentMergeNeedsParentGates(t *testing.T) {
	// outer: inner (which has a gate on ok) then merge; the parent has no gate of its own.
	cfg := mergeChildConfig()
	cfg.Pipelines[0].Stages = []*lang.Stage{
		{ID: "land", Type: lang.StagePipeline, Pipeline: "inner", OnComplete: "merge"},
		{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
	}
	cfg.Pipelines[1].Stages = cfg.Pipelines[1].Stages[:1]
	cfg.Pipelines[1].Stages[0].OnPass = lang.TargetComplete
	cfg.Pipelines[0].Stages = append([]*lang.Stage{{ID: "approved", Type: lang.StageGate, OnPass: "land", Conditions: []lang.Condition{{Check: "approved", Eval: labelCheck("approved")}}}},
		cfg.Pipelines[0].Stages...)
	f := prFacts("approved", "ok")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	m := mergeEffects(res.Effects)
	require.Len(t, m, 1)
	assert.Equal(t, "outer/7/1", m[0].Run)
	// The parent's gate no longer holds at its merge: back to it, whatever the child passed.
	f.PR.Labels = []string{"ok"}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(model.MaxIntentLease+time.Hour))
	assert.Empty(t, mergeEffects(res.Effects))
	assert.Equal(t, "approved", runOf(res.State, "outer/7/1").Stage)
}

func TestSubPipelineTriggeredPipelineAlsoUsedAsChildStillStarts(t *testing.T) {
	cfg := subConfig(t)
	cfg.Pipelines[1].Trigger = lang.Trigger{Event: "pull_request.labeled", Labels: []string{"review"}}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	f.PR.Labels = []string{"review"}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled", Label: "review"}, f, t0.Add(time.Minute))
	top := runOf(res.State, "standard-review/7/2")
	require.NotNil(t, top, "the child does not count as the pipeline's own active run")
	assert.Empty(t, top.Parent)
}

// The parallel stages' side: a branch of type pipeline starts its child and advances it
// (runtree.Advance); the child lives while its branch is open.
func TestSubPipelineChildOfBranch(t *testing.T) {
	cfg := subConfig(t)
	branch := &lang.Stage{ID: "deep-review", Type: lang.StagePipeline, Pipeline: "standard-review",
		Context: []lang.KeyValue{{Key: "focus", Value: lang.Value{Kind: lang.KindString, Scalar: "branch"}}}}
	par := &lang.Stage{ID: "reviews", Type: lang.StageParallel, Join: "all", Branches: []*lang.Stage{branch}}
	p := cfg.Pipelines[0]
	p.Stages = append([]*lang.Stage{par}, p.Stages...)
	run := &model.Run{ID: parentID, Pipeline: p.Name, Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "reviews", StartedAt: t0,
		Context: map[string]any{"pr_number": 7.0},
		Stages:  map[string]*model.StageRun{"reviews": {Status: model.StageWaiting, Attempt: 1}, "deep-review": {Status: model.StageWaiting, Attempt: 2}}}
	e := newEval(cfg, &model.State{Version: 1, Runs: []*model.Run{run}}, prFacts(), t0, model.Input{})
	run = e.St.Runs[0]

	child, why, fatal := runtree.Advance(treeKernel{e}, p, run, branch)
	require.NotNil(t, child, why)
	assert.False(t, fatal)
	assert.Equal(t, "review-merge/7/1/deep-review", child.Parent)
	assert.Equal(t, 2, child.ParentAttempt, "the branch's attempt")
	assert.Equal(t, "branch", child.Context["focus"])
	assert.Equal(t, "security", child.Stage)
	require.Len(t, e.Effects, 1, "the child was advanced: its first agent is dispatched")
	again, _, _ := runtree.Advance(treeKernel{e}, p, run, branch)
	assert.Same(t, child, again, "one child per attempt of the branch")
	assert.Len(t, e.St.Runs, 2)
	assert.Equal(t, []*model.Run{child}, e.tree().LiveChildren(run))
	assert.True(t, e.commandSkips(run, model.CmdRetry))

	runtree.Reap(treeKernel{e})
	assert.False(t, child.Status.Final(), "its branch is open")
	run.Stages["deep-review"].Status = model.StageCancelled // the join cancelled the branch
	runtree.Reap(treeKernel{e})
	assert.Equal(t, model.RunCancelled, child.Status)
	assert.Contains(t, child.Message, "left attempt 2 of \"deep-review\"")
}

func TestSubPipelineMergeByChildCompletesParentOnClosed(t *testing.T) {
	cfg := mergeChildConfig()
	cfg.Pipelines[0].OnEvents = []lang.EventReaction{{Event: "pull_request.closed", Action: lang.ReactCancel}}
	f := prFacts("approved", "ok")
	f.Viewer = "github-actions"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, mergeEffects(res.Effects), 1)
	// The merge happened, but the state after it was not saved; the closed event comes.
	f.PR.State, f.PR.MergedBy = model.PRMerged, "github-actions[bot]"
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.closed"}, f, t0.Add(time.Minute))
	assert.Equal(t, model.RunCompleted, runOf(res.State, "inner/7/1").Status)
	assert.Equal(t, model.RunCompleted, runOf(res.State, "outer/7/1").Status, "not cancelled: its child merged")
	assert.Empty(t, res.Effects)

	// Closed without a merge: both are cancelled.
	g := prFacts("approved")
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, g, t0)
	g.PR.State = model.PRClosed
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.closed"}, g, t0.Add(time.Minute))
	assert.Equal(t, model.RunCancelled, runOf(res.State, "outer/7/1").Status)
}

// TestSubPipelineProperties runs random parents with a pipeline stage over random
// children through random inputs and outcomes, and checks after every Step and Settle:
// the invariants of TestStepProperties, at most one child per attempt of a pipeline
// stage, no live child its parent does not wait for, and the same input twice equals once.
