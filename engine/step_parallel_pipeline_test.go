package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// pipelineBranchConfig is parallelConfig with reviewer "sec" and a second branch, "deep",
// of type pipeline: it runs pipeline "inner" (one agent stage, check), with the branch's
// context ("focus") passed in.
func pipelineBranchConfig(t *testing.T, join string) *lang.Config {
	cfg := parallelConfig(t, join, "sec")
	cfg.Agents = append(cfg.Agents, &lang.Agent{Name: "checker", Dispatch: lang.DispatchRepositoryDispatch, EventType: "check"})
	review := cfg.Pipelines[0].Stages[1]
	review.Branches = append(review.Branches, &lang.Stage{ID: "deep", Type: lang.StagePipeline, Pipeline: "inner",
		Context: []lang.KeyValue{{Key: "focus", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "pr-{{ subject.number }}")}}}})
	cfg.Pipelines = append(cfg.Pipelines, &lang.Pipeline{Name: "inner", Stages: []*lang.Stage{
		{ID: "check", Type: lang.StageAgent, Agent: "checker", AgentAction: "review", OnComplete: lang.TargetComplete},
	}})
	return cfg
}

const innerID = "inner/7/1"

func effectKeys(res model.Result) []string {
	var keys []string
	for _, e := range res.Effects {
		keys = append(keys, e.Key)
	}
	return keys
}

func TestParallelPipelineBranchStartsChildAndSucceedsWithIt(t *testing.T) {
	cfg := pipelineBranchConfig(t, lang.JoinAll)
	f := prFacts()
	res := atReview(t, cfg, f)
	assert.ElementsMatch(t, []string{"loop/7/1/sec-review/1/dispatch", innerID + "/check/1/dispatch"}, effectKeys(res),
		"the agent branch and the child's first agent are dispatched at once")
	child := runOf(res.State, innerID)
	require.NotNil(t, child)
	assert.Equal(t, "loop/7/1/deep", child.Parent)
	assert.Equal(t, 1, child.ParentAttempt)
	assert.Equal(t, "pr-7", child.Context["focus"], "the branch's context goes in")
	run := runOf(res.State, "loop/7/1")
	assert.Equal(t, innerID, run.Stages["deep"].Child)
	assert.Equal(t, model.StageWaiting, run.Stages["deep"].Status)
	assert.Contains(t, run.Stages["deep"].Message, "sub-pipeline run inner/7/1 is")

	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, innerID, "check", 1, lang.VerdictApprove, map[string]any{"summary": "fine"}), f, t0.Add(2*time.Minute))
	run = runOf(res.State, "loop/7/1")
	assert.Equal(t, model.RunCompleted, runOf(res.State, innerID).Status)
	assert.Equal(t, model.StageSucceeded, run.Stages["deep"].Status, "the child completing is the branch succeeding")
	assert.Equal(t, map[string]any{"check": map[string]any{"summary": "fine"}}, run.Stages["deep"].Outputs)
	assert.Equal(t, "review", run.Stage, "join all waits for sec")

	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil), f, t0.Add(3*time.Minute))
	run = runOf(res.State, "loop/7/1")
	assert.Equal(t, "done", run.Stage)
	assert.Equal(t, model.StageSucceeded, run.Stages["review"].Status)
	// The join's templates read the child's outputs through the branch.
	tpl := agentTemplate(t, "{{ stages.deep.outputs.check.summary }}")
	out, err := tpl.Render(scope.Env(scopeKernel{newEval(cfg, res.State, f, t0, model.Input{})}, cfg.Pipelines[0], run))
	require.NoError(t, err)
	assert.Equal(t, "fine", out)
}

func TestParallelPipelineBranchJoinAnyCancelsTheChild(t *testing.T) {
	cfg := pipelineBranchConfig(t, lang.JoinAny)
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil), f, t0.Add(2*time.Minute))
	run, child := runOf(res.State, "loop/7/1"), runOf(res.State, innerID)
	assert.Equal(t, "done", run.Stage)
	assert.Equal(t, model.StageCancelled, run.Stages["deep"].Status)
	assert.Equal(t, model.RunCancelled, child.Status, "the child of a cancelled branch is cancelled")
	assert.Contains(t, child.Message, `left attempt 1 of "deep"`)
	late := Step(cfg, res.State, reportOn(res.State, innerID, "check", 1, lang.VerdictApprove, nil), f, t0.Add(3*time.Minute))
	assert.True(t, logged(late, "refused"), late.Log)
	assert.Equal(t, "done", runOf(late.State, "loop/7/1").Stage)
}

func TestParallelPipelineBranchChildRejectsAndOnAnyRejectLoops(t *testing.T) {
	cfg := pipelineBranchConfig(t, lang.JoinAll)
	review := cfg.Pipelines[0].Stages[1]
	review.OnAnyReject = &lang.Rule{Goto: "implement", MaxIterations: 2, Then: lang.TargetEscalate, Context: []lang.KeyValue{
		{Key: "feedback", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ filter(branches.*.feedback, # != nil) }}")}}}}
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	// The child's agent rejects; its pipeline has no on_reject: the child fails on it.
	res = Step(cfg, res.State, reportOn(res.State, innerID, "check", 1, lang.VerdictReject, map[string]any{"feedback": "add tests"}), f, t0.Add(2*time.Minute))
	run, child := runOf(res.State, "loop/7/1"), runOf(res.State, innerID)
	assert.Equal(t, model.RunFailed, child.Status)
	assert.Equal(t, lang.VerdictReject, run.Stages["deep"].Verdict, "the branch takes the child's rejecting verdict")
	assert.Equal(t, model.StageCancelled, run.Stages["sec-review"].Status)
	assert.Equal(t, "implement", run.Stage, "on_any_reject applies to a rejecting child")
	assert.Equal(t, []any{"add tests"}, run.Context["feedback"])
	assert.Equal(t, 1, run.Iterations["review/any_reject"])

	// Back at review: a new attempt of the branch starts a new child.
	res = dispatched(t, cfg, res, f, t0.Add(3*time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 2, lang.VerdictComplete, nil), f, t0.Add(4*time.Minute))
	run = runOf(res.State, "loop/7/1")
	require.Equal(t, "review", run.Stage)
	assert.Equal(t, 2, run.Stages["deep"].Attempt)
	assert.Equal(t, "inner/7/2", run.Stages["deep"].Child)
	assert.Empty(t, run.Stages["deep"].Verdict)
	assert.Contains(t, effectKeys(res), "inner/7/2/check/1/dispatch")
}

func TestParallelPipelineBranchChildFailureOrEscalationFailsTheBranch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		onError *lang.ErrorPolicy
		child   model.RunStatus
	}{
		{"failed", nil, model.RunFailed},
		{"escalated", &lang.ErrorPolicy{Then: lang.TargetEscalate}, model.RunCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := pipelineBranchConfig(t, lang.JoinAll)
			review := cfg.Pipelines[0].Stages[1]
			review.OnAnyReject = &lang.Rule{Goto: "implement"} // not for a failure
			cfg.Pipelines[1].Stages[0].OnError = tc.onError
			// Only an agent dispatched as a workflow has a workflow run that can end it.
			cfg.Agent("checker").Dispatch, cfg.Agent("checker").Workflow = lang.DispatchWorkflow, "check.yml"
			f := prFacts()
			res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
			res = Step(cfg, res.State, model.Input{Key: "wf", Event: "workflow_run.completed",
				AgentFailure: ownRun(cfg, f, model.AgentFailure{Run: innerID, Stage: "check", Attempt: 1, Why: "concluded failure"})}, f, t0.Add(2*time.Minute))
			run, child := runOf(res.State, "loop/7/1"), runOf(res.State, innerID)
			assert.Equal(t, tc.child, child.Status, "an escalated child hands its escalation to the branch and ends")
			if tc.child == model.RunCancelled {
				assert.Equal(t, `its escalation fails branch "deep" of run loop/7/1 (the join decides)`, child.Message)
			}
			assert.Equal(t, model.StageFailed, run.Stages["deep"].Status)
			assert.Empty(t, run.Stages["deep"].Verdict)
			assert.Contains(t, run.Stages["deep"].Message, "agent checker ended without a report")
			assert.Equal(t, model.RunFailed, run.Status, "join all can no longer be met")
			assert.Contains(t, run.Message, "deep failed")
			assert.Equal(t, model.StageCancelled, run.Stages["sec-review"].Status)
		})
	}
}

func TestParallelPipelineBranchTimeoutCancelsTheChild(t *testing.T) {
	cfg := pipelineBranchConfig(t, lang.JoinAny)
	cfg.Pipelines[0].Stages[1].Branches[1].Timeout = 30 * time.Minute
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "sweep"}, f, t0.Add(40*time.Minute))
	run, child := runOf(res.State, "loop/7/1"), runOf(res.State, innerID)
	assert.Equal(t, model.StageFailed, run.Stages["deep"].Status)
	assert.Contains(t, run.Stages["deep"].Message, "timed out")
	assert.Equal(t, model.RunCancelled, child.Status)
	assert.Equal(t, "review", run.Stage, "join any: sec may still succeed")
}

func TestParallelPipelineBranchCancelledWithTheRun(t *testing.T) {
	cfg := pipelineBranchConfig(t, lang.JoinAll)
	f := prFacts()
	f.People.Permissions = map[string]string{"alice": "write"}
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "alice", Body: "/pipeline cancel", CreatedAt: t0.Add(time.Hour)}}
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Equal(t, model.RunCancelled, runOf(res.State, "loop/7/1").Status)
	assert.Equal(t, model.RunCancelled, runOf(res.State, innerID).Status)
}

// TestParallelPipelineBranchProperties runs random parents with a parallel stage whose
// branches are a pipeline branch (a child that waits on a label, then random stages) and an
// action branch, through random inputs and outcomes, and checks after every Step and
// Settle: the invariants of TestStepProperties, at most one child per attempt of the
// branch, no live child whose branch is not open in its parent's current entry of the
// parallel stage, and the same input twice equals once.
func TestParallelPipelineBranchProperties(t *testing.T) {
	children, joined, cancelled := 0, 0, 0
	for seed := range uint64(250) {
		r := rand.New(rand.NewPCG(seed, 29))
		cfg := parBranchPropConfig(r)
		st := &model.State{}
		attempts := map[string]int{}
		now := t0
		check := func(st *model.State, where string) {
			checkInvariants(t, cfg, st, attempts, where)
			checkBranchChildren(t, st, where)
		}
		for i := range 14 {
			now = now.Add(time.Duration(1+r.IntN(3)) * time.Minute)
			in := model.Input{Key: fmt.Sprintf("d%d", i), Event: propEvents[r.IntN(len(propEvents))], Actor: "amy", Number: 7}
			if i == 0 {
				in.Event = "pull_request.opened"
			}
			facts := propFacts(r)
			if i > 1 && r.IntN(6) == 0 {
				in.Event, facts.PR.State = "pull_request.closed", model.PRClosed
			}
			where := fmt.Sprintf("seed %d input %d (%s)", seed, i, in.Event)
			res := Step(cfg, st, in, facts, now)
			check(res.State, where)
			again := Step(cfg, res.State, in, facts, now)
			require.False(t, again.Changed, "%s: applied twice changed the state", where)
			st = res.State
			for round := 0; len(res.Effects) > 0 && round < 4; round++ {
				var outs []model.Outcome
				for _, e := range res.Effects {
					o := model.Outcome{Key: e.Key}
					if r.IntN(4) == 0 {
						o.Err, o.Permanent = "refused", r.IntN(2) == 0
					}
					outs = append(outs, o)
				}
				res = Settle(cfg, st, model.Input{Actor: "bot", Visits: res.Visits}, outs, facts, now)
				check(res.State, fmt.Sprintf("%s settle %d", where, round))
				st = res.State
			}
		}
		for _, run := range st.Runs {
			if run.Parent != "" {
				children++
				if run.Status == model.RunCancelled {
					cancelled++
				}
			}
			if sr := run.Stages["par"]; run.Parent == "" && sr != nil && sr.Status == model.StageSucceeded {
				joined++
			}
		}
	}
	t.Logf("%d children started (%d cancelled), %d parents met their join", children, cancelled, joined)
	require.Greater(t, children, 60, "children started")
	require.Greater(t, cancelled, 10, "children cancelled")
	require.Greater(t, joined, 20, "joins met")
}

// A merge inside the child of a pipeline branch is not made: the other branches (here a
// security review still to report, with join all) have not been joined, and a merge
// belongs after the join. The child holds, saying why.
func TestParallelPipelineBranchChildDoesNotMerge(t *testing.T) {
	cfg := mergeChildConfig()
	outer := cfg.Pipelines[0]
	cfg.Agents = []*lang.Agent{{Name: "sec", Dispatch: lang.DispatchRepositoryDispatch, EventType: "sec"}}
	outer.Stages[0].OnPass = "par"
	outer.Stages[1] = &lang.Stage{ID: "par", Type: lang.StageParallel, Join: lang.JoinAll, Branches: []*lang.Stage{
		{ID: "land", Type: lang.StagePipeline, Pipeline: "inner"},
		{ID: "sec-review", Type: lang.StageAgent, Agent: "sec", AgentAction: "review"},
	}}
	f := prFacts("approved", "ok")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Empty(t, mergeEffects(res.Effects), "no merge inside a branch")
	assert.Equal(t, []string{"outer/7/1/sec-review/1/dispatch"}, effectKeys(res))
	child := runOf(res.State, "inner/7/1")
	require.NotNil(t, child)
	assert.Equal(t, "merge", child.Stage)
	assert.NotEqual(t, model.RunCompleted, child.Status)
	assert.Contains(t, child.Stages["merge"].Results[0].Message, `runs branch "land" of parallel stage "par" of run outer/7/1: a merge belongs after the join`)
}

// A child whose own rule escalates on a rejection hands the rejection to its branch all
// the same: the branch is rejected with the child's verdict, and on_any_reject applies.
func TestParallelPipelineBranchChildEscalatingOnRejectRejects(t *testing.T) {
	cfg := pipelineBranchConfig(t, lang.JoinAny)
	review := cfg.Pipelines[0].Stages[1]
	review.OnAnyReject = &lang.Rule{Goto: "implement"}
	cfg.Pipelines[1].Stages[0].Verdicts = map[string]*lang.Rule{lang.VerdictRevise: {Goto: lang.TargetEscalate}}
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, innerID, "check", 1, lang.VerdictRevise, map[string]any{"feedback": "split the function"}), f, t0.Add(2*time.Minute))
	run := runOf(res.State, "loop/7/1")
	assert.Equal(t, lang.VerdictRevise, run.Stages["deep"].Verdict)
	assert.Equal(t, model.StageFailed, run.Stages["deep"].Status)
	assert.Equal(t, model.RunCancelled, runOf(res.State, innerID).Status)
	assert.Equal(t, "review", run.Stage, "join any: sec may still approve")
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictReject, map[string]any{"feedback": "no"}), f, t0.Add(3*time.Minute))
	run = runOf(res.State, "loop/7/1")
	assert.Equal(t, "implement", run.Stage, "both rejected: on_any_reject")
	assert.Contains(t, run.History[len(run.History)-1].Why, "sec-review, deep rejected")
}

// parBranchPropConfig draws a parent pipeline with a parallel stage "par" whose branches are a
// pipeline branch "sub" running kid (which waits a while at a gate on a label the random
// facts carry half the time) and an action branch adding a label.
func parBranchPropConfig(r *rand.Rand) *lang.Config {
	parent, child := propPipeline(r), propPipeline(r)
	child.Name, child.Trigger, child.OnEvents = "kid", lang.Trigger{}, nil
	child.Stages = append([]*lang.Stage{{ID: "wait", Type: lang.StageGate, OnPass: child.Stages[0].ID,
		Conditions: []lang.Condition{{Check: "has-a", Eval: labelCheck("a")}}}}, child.Stages...)
	at := r.IntN(len(parent.Stages))
	join := []string{lang.JoinAll, lang.JoinAny}[r.IntN(2)]
	par := &lang.Stage{ID: "par", Type: lang.StageParallel, Join: join, Branches: []*lang.Stage{
		{ID: "sub", Type: lang.StagePipeline, Pipeline: "kid"},
		{ID: "tag", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"b"}}},
	}}
	if r.IntN(2) == 0 {
		par.Branches[0].Timeout = time.Duration(1+r.IntN(6)) * time.Minute
	}
	if r.IntN(2) == 0 {
		par.OnAnyReject = &lang.Rule{Goto: parent.Stages[0].ID, MaxIterations: 1, Then: lang.TargetFail}
	}
	parent.Stages = append(parent.Stages[:at], append([]*lang.Stage{par}, parent.Stages[at:]...)...)
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{parent, child}}
}

// checkBranchChildren: one child per attempt of the branch, and a live child only of a live,
// unescalated parent standing at that branch, at that attempt.
func checkBranchChildren(t *testing.T, st *model.State, where string) {
	seen := map[string]string{}
	for _, c := range st.Runs {
		if c.Parent == "" {
			continue
		}
		k := fmt.Sprintf("%s#%d", c.Parent, c.ParentAttempt)
		require.Empty(t, seen[k], "%s: two children of %s: %s and %s", where, k, seen[k], c.ID)
		seen[k] = c.ID
		if c.Status.Final() {
			continue
		}
		pid, link := model.SplitParent(c.Parent)
		require.Equal(t, "sub", link, where)
		p := runOf(st, pid)
		require.NotNil(t, p, where)
		require.False(t, p.Status.Final(), "%s: child %s of a final parent is %s", where, c.ID, c.Status)
		require.NotEqual(t, model.RunEscalated, p.Status, "%s: child %s of an escalated parent is live", where, c.ID)
		require.True(t, p.At("sub"), "%s: live child %s of a parent at %s whose branch is %s", where, c.ID, p.Stage, p.Stages["sub"].Status)
		require.Equal(t, p.Stages["sub"].Attempt, c.ParentAttempt, "%s: live child of an earlier attempt", where)
	}
}

// pipelineBranch: a pipeline branch ends as its child ends, for the join to decide.
func TestSubPipelineBranchFollowsChild(t *testing.T) {
	leaf := &lang.Pipeline{Name: "leaf", Stages: []*lang.Stage{{ID: "g", Type: lang.StageGate, OnPass: lang.TargetComplete, OnFail: lang.TargetEscalate,
		Conditions: []lang.Condition{{Check: "ok", Eval: checkFunc(func(f *model.Facts) model.GateResult {
			switch {
			case f.PR.HasLabel("broken"):
				return model.GateResult{Status: model.GateFail, Message: "broken"}
			case f.PR.HasLabel("ok"):
				return model.GateResult{Status: model.GatePass, Message: "ok"}
			}
			return model.GateResult{Status: model.GatePending, Message: "needs ok"}
		})}}}}}
	branch := &lang.Stage{ID: "deep", Type: lang.StagePipeline, Pipeline: "leaf"}
	par := &lang.Stage{ID: "reviews", Type: lang.StageParallel, Join: "all", Branches: []*lang.Stage{branch}}
	top := &lang.Pipeline{Name: "top", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{par}}
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{top, leaf}}
	state := func() *model.State {
		return &model.State{Version: 1, Runs: []*model.Run{{ID: "top/7/1", Pipeline: "top", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "reviews", StartedAt: t0,
			Stages: map[string]*model.StageRun{"reviews": {Status: model.StageWaiting, Attempt: 1},
				"deep": {Status: model.StageWaiting, Attempt: 1, Parent: "reviews", ParentAttempt: 1}}}}}
	}
	for _, tc := range []struct {
		label, status, child, msg string
	}{
		{"", string(model.StageWaiting), string(model.RunWaiting), "sub-pipeline run leaf/7/1 is waiting at g"},
		{"ok", string(model.StageSucceeded), string(model.RunCompleted), "sub-pipeline run leaf/7/1 completed"},
		{"broken", string(model.StageFailed), string(model.RunCancelled), "sub-pipeline run leaf/7/1 escalated at g: gate failed: broken"},
	} {
		f := prFacts()
		if tc.label != "" {
			f.PR.Labels = []string{tc.label}
		}
		e := newEval(cfg, state(), f, t0, model.Input{})
		run := e.St.Runs[0]
		stageTypes[lang.StagePipeline].branch(e, top, run, branch)
		child := e.tree().ByID("leaf/7/1")
		require.NotNil(t, child, tc.label)
		assert.Equal(t, "top/7/1/deep", child.Parent)
		assert.Equal(t, tc.status, string(run.Stages["deep"].Status), tc.label)
		assert.Equal(t, tc.child, string(child.Status), tc.label)
		assert.Equal(t, tc.msg, run.Stages["deep"].Message, tc.label)
		stageTypes[lang.StagePipeline].branch(e, top, run, branch)
		assert.Len(t, e.St.Runs, 2, "one child per attempt of the branch")
	}
}
