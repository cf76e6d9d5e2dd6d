package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// parallelConfig is implement (agent) → review (parallel: one agent branch per reviewer)
// → done (a gate on label "ok") → merge.
func parallelConfig(t testing.TB, join string, reviewers ...string) *lang.Config {
	cfg := &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "implementer", Dispatch: lang.DispatchWorkflow, Workflow: "agent-implement.yml"}}}
	review := &lang.Stage{ID: "review", Type: lang.StageParallel, Join: lang.JoinAll, OnComplete: "done"}
	switch join {
	case lang.JoinAll, lang.JoinAny:
		review.Join = join
	default:
		review.Join = join
		review.JoinCount = int(join[0] - '0')
	}
	for _, r := range reviewers {
		cfg.Agents = append(cfg.Agents, &lang.Agent{Name: r, Dispatch: lang.DispatchRepositoryDispatch, EventType: r})
		review.Branches = append(review.Branches, &lang.Stage{ID: r + "-review", Type: lang.StageAgent, Agent: r, AgentAction: "review"})
	}
	cfg.Pipelines = []*lang.Pipeline{{
		Name:    "loop",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		Context: []lang.KeyValue{{Key: "feedback", Value: lang.Value{Kind: lang.KindString, Scalar: ""}}},
		Stages: []*lang.Stage{
			{ID: "implement", Type: lang.StageAgent, Agent: "implementer", AgentAction: "implement", OnComplete: "review"},
			review,
			{ID: "done", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
		},
	}}
	return cfg
}

// atReview starts a run of cfg and brings it to the parallel stage, its branches dispatched.
func atReview(t *testing.T, cfg *lang.Config, f *model.Facts) model.Result {
	t.Helper()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	require.Equal(t, "review", res.State.Runs[0].Stage)
	return res
}

func logged(res model.Result, part string) bool {
	for _, l := range res.Log {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

func TestParallelStartsEveryBranchAtOnce(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	f := prFacts()
	res := atReview(t, cfg, f)
	require.Len(t, res.Effects, 2, "one dispatch per branch")
	assert.Equal(t, "loop/7/1/sec-review/1/dispatch", res.Effects[0].Key)
	assert.Equal(t, "loop/7/1/perf-review/1/dispatch", res.Effects[1].Key)
	assert.Equal(t, "sec-review", res.Effects[0].Inputs["stage"])
	run := res.State.Runs[0]
	assert.Len(t, run.Intents, 2, "both dispatches are write-ahead")
	assert.Equal(t, "review", run.Stages["sec-review"].Parent)
	assert.Equal(t, 1, run.Stages["sec-review"].ParentAttempt)

	// The same event again while the intents are in flight: nothing is dispatched twice.
	again := Step(cfg, res.State, model.Input{Key: "k9", Event: "status"}, f, t0.Add(2*time.Minute))
	assert.Empty(t, again.Effects)

	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	run = res.State.Runs[0]
	assert.Empty(t, run.Intents)
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, model.StageWaiting, run.Stages["sec-review"].Status)
	assert.Equal(t, model.StageWaiting, run.Stages["perf-review"].Status)
	require.Len(t, run.Stages["review"].Results, 2)
	assert.Equal(t, "branch sec-review", run.Stages["review"].Results[0].Check)
	assert.Equal(t, model.GatePending, run.Stages["review"].Results[0].Status)
	assert.Equal(t, "agent sec", run.Stages["review"].Results[0].Who)

	later := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Hour))
	assert.Empty(t, later.Effects, "a branch is dispatched once per attempt")
}

func TestParallelJoinAll(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, map[string]any{"note": "fine"}), f, t0.Add(2*time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage, "join all waits for every branch")
	assert.Equal(t, model.StageSucceeded, run.Stages["sec-review"].Status)
	assert.Equal(t, lang.VerdictApprove, run.Stages["sec-review"].Verdict)

	// The same report delivered again: handled once, refused the second time.
	again := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictReject, nil), f, t0.Add(3*time.Minute))
	assert.True(t, logged(again, `branch "sec-review" of stage "review" has already succeeded with verdict approve`), again.Log)
	assert.Equal(t, "review", again.State.Runs[0].Stage)
	assert.Equal(t, model.StageSucceeded, again.State.Runs[0].Stages["sec-review"].Status)

	res = Step(cfg, again.State, reportOn(again.State, "loop/7/1", "perf-review", 1, lang.VerdictComplete, nil), f, t0.Add(4*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, "done", run.Stage)
	assert.Equal(t, model.StageSucceeded, run.Stages["review"].Status)
	assert.Contains(t, run.History[len(run.History)-1].Why, "join: all met: 2 of 2 branches succeeded")
}

func TestParallelJoinAnyCancelsTheOthers(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAny, "sec", "perf")
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "perf-review", 1, lang.VerdictApprove, nil), f, t0.Add(2*time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, "done", run.Stage)
	assert.Equal(t, model.StageCancelled, run.Stages["sec-review"].Status)
	assert.Contains(t, run.Stages["sec-review"].Message, "join: any met")

	// The cancelled branch reports late: refused with its reason, nothing moves.
	late := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictReject, map[string]any{"feedback": "no"}), f, t0.Add(3*time.Minute))
	assert.True(t, logged(late, `report reject for run "loop/7/1", stage "sec-review", attempt 1 refused: branch "sec-review" of stage "review" was cancelled: join: any met`), late.Log)
	assert.Equal(t, "done", late.State.Runs[0].Stage)
	assert.Equal(t, model.StageCancelled, late.State.Runs[0].Stages["sec-review"].Status)
	assert.Nil(t, late.State.Runs[0].Stages["sec-review"].Outputs)
}

func TestParallelJoinAnyWaitsWhileItCanStillBeMet(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAny, "sec", "perf")
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "perf-review", 1, lang.VerdictFailed, nil), f, t0.Add(2*time.Minute))
	assert.Equal(t, "review", res.State.Runs[0].Stage, "one branch may still succeed")
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictFailed, nil), f, t0.Add(3*time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "join: any can no longer be met: sec-review, perf-review failed")
}

func TestParallelJoinN(t *testing.T) {
	cfg := parallelConfig(t, "2", "a", "b", "c")
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	require.Len(t, res.State.Runs[0].Stages["review"].Results, 3)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "a-review", 1, lang.VerdictApprove, nil), f, t0.Add(2*time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "b-review", 1, lang.VerdictReject, nil), f, t0.Add(3*time.Minute))
	assert.Equal(t, "review", res.State.Runs[0].Stage, "2 of 3 may still be met")
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "c-review", 1, lang.VerdictComplete, nil), f, t0.Add(4*time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, "done", run.Stage)
	assert.Contains(t, run.History[len(run.History)-1].Why, "join: 2 of 3 met")

	// Two failures of three: 2 of 3 can no longer be met; without on_any_reject the run fails.
	res = dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "a-review", 1, lang.VerdictReject, nil), f, t0.Add(2*time.Minute))
	assert.Equal(t, "review", res.State.Runs[0].Stage)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "c-review", 1, lang.VerdictFailed, nil), f, t0.Add(3*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Equal(t, model.StageCancelled, run.Stages["b-review"].Status)
	assert.Contains(t, run.Message, "a-review rejected; c-review failed")
}

func TestParallelOnAnyRejectLoopsWithFeedback(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	review := cfg.Pipelines[0].Stages[1]
	review.OnAnyReject = &lang.Rule{Goto: "implement", MaxIterations: 1, Then: lang.TargetEscalate, Context: []lang.KeyValue{
		{Key: "feedback", Value: lang.Value{Kind: lang.KindString, Template: agentTemplate(t, "{{ filter(branches.*.feedback, # != nil) }}")}}}}
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictReject, map[string]any{"feedback": "validate the input"}), f, t0.Add(2*time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, "implement", run.Stage, "with join all, the first rejection decides")
	assert.Equal(t, []any{"validate the input"}, run.Context["feedback"])
	assert.Equal(t, 1, run.Iterations["review/any_reject"])
	assert.Equal(t, model.StageFailed, run.Stages["review"].Status)
	assert.Equal(t, model.StageCancelled, run.Stages["perf-review"].Status)
	assert.Contains(t, run.History[len(run.History)-1].Why, "on_any_reject: iteration 1 of 1")
	require.Len(t, res.Effects, 1)
	assert.Contains(t, res.Effects[0].Inputs["context"], "validate the input", "the implementer gets the feedback")

	// The perf reviewer's late report is refused: its branch was cancelled.
	late := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "perf-review", 1, lang.VerdictApprove, nil), f, t0.Add(3*time.Minute))
	assert.True(t, logged(late, "refused"), late.Log)

	// Back at review: every branch starts anew (attempt 2); a second rejection spends the loop.
	res = dispatched(t, cfg, res, f, t0.Add(3*time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 2, lang.VerdictComplete, nil), f, t0.Add(4*time.Minute))
	run = res.State.Runs[0]
	require.Equal(t, "review", run.Stage)
	assert.Equal(t, 2, run.Stages["perf-review"].Attempt)
	assert.Equal(t, model.StageActing, run.Stages["sec-review"].Status)
	assert.Nil(t, run.Stages["sec-review"].Outputs, "a new entry forgets the outputs of the last")
	require.Len(t, res.Effects, 2)
	res = dispatched(t, cfg, res, f, t0.Add(4*time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "perf-review", 2, lang.VerdictRevise, map[string]any{"feedback": "too slow"}), f, t0.Add(5*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Message, "on_any_reject has looped 1 of 1 times")
}

func TestParallelActionBranch(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec")
	review := cfg.Pipelines[0].Stages[1]
	review.Branches = append(review.Branches, &lang.Stage{ID: "tag", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"in-review"}}})
	f := prFacts()
	res := atReview(t, cfg, f)
	require.Len(t, res.Effects, 2)
	assert.Equal(t, model.EffectAddLabel, res.Effects[1].Kind)
	assert.Equal(t, "loop/7/1/tag/1/add_label", res.Effects[1].Key)
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, model.StageSucceeded, run.Stages["tag"].Status)
	assert.Equal(t, "review", run.Stage)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil), f, t0.Add(2*time.Minute))
	assert.Equal(t, "done", res.State.Runs[0].Stage)

	// An action refused for good fails its branch, and join all with it.
	res = atReview(t, cfg, f)
	var outs []model.Outcome
	for _, e := range res.Effects {
		o := model.Outcome{Key: e.Key}
		if e.Kind == model.EffectAddLabel {
			o.Err, o.Permanent = "label refused", true
		}
		outs = append(outs, o)
	}
	res = Settle(cfg, res.State, model.Input{}, outs, f, t0.Add(time.Minute))
	assert.Equal(t, model.StageFailed, res.State.Runs[0].Stages["tag"].Status)
	// The run whose effect was refused moves on the next event.
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "status"}, f, t0.Add(2*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "tag failed")
}

func TestParallelBranchTimeoutAndAgentError(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAny, "sec", "perf")
	review := cfg.Pipelines[0].Stages[1]
	review.Branches[0].Timeout = 30 * time.Minute
	// Only an agent dispatched as a workflow has a workflow run that can end it.
	cfg.Agent("perf").Dispatch, cfg.Agent("perf").Workflow = lang.DispatchWorkflow, "perf.yml"
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, t0.Add(31*time.Minute), run.NextDeadline(), "a branch's timeout is a deadline of its stage")

	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "sweep"}, f, t0.Add(40*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.StageFailed, run.Stages["sec-review"].Status)
	assert.Contains(t, run.Stages["sec-review"].Message, "timed out")
	assert.Equal(t, "review", run.Stage, "join any: perf may still succeed")
	assert.True(t, run.NextDeadline().IsZero())

	res = Step(cfg, res.State, model.Input{Key: "wf", Event: "workflow_run.completed",
		AgentFailure: ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "perf-review", Attempt: 1, Why: "concluded failure"})}, f, t0.Add(41*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Equal(t, model.StageFailed, run.Stages["perf-review"].Status)
}

func TestParallelRetryRestartsTheBranchesNotCompleted(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	review := cfg.Pipelines[0].Stages[1]
	review.Timeout = time.Hour
	review.OnTimeout = &lang.Rule{Then: lang.TargetEscalate}
	f := prFacts()
	f.People.Permissions = map[string]string{"alice": "write"}
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil), f, t0.Add(2*time.Minute))
	res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "sweep"}, f, t0.Add(2*time.Hour))
	require.Equal(t, model.RunEscalated, res.State.Runs[0].Status)

	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "alice", Body: "/pipeline retry", CreatedAt: t0.Add(3 * time.Hour)}}
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, t0.Add(3*time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage)
	assert.Equal(t, 2, run.Stages["review"].Attempt)
	assert.Equal(t, model.StageSucceeded, run.Stages["sec-review"].Status, "a branch that succeeded keeps its result")
	assert.Equal(t, 1, run.Stages["sec-review"].Attempt)
	assert.Equal(t, 2, run.Stages["perf-review"].Attempt, "the others start again")
	var keys []string
	for _, e := range res.Effects {
		keys = append(keys, e.Key)
	}
	assert.Contains(t, keys, "loop/7/1/perf-review/2/dispatch")
	assert.NotContains(t, keys, "loop/7/1/sec-review/2/dispatch")

	res = dispatched(t, cfg, res, f, t0.Add(3*time.Hour))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "perf-review", 2, lang.VerdictApprove, nil), f, t0.Add(3*time.Hour+30*time.Minute))
	assert.Equal(t, "done", res.State.Runs[0].Stage, res.Log)
}

func TestParallelSkipAndCancelCloseTheBranches(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	f := prFacts()
	f.People.Permissions = map[string]string{"alice": "write"}
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "alice", Body: "/pipeline skip", CreatedAt: t0.Add(time.Hour)}}
	skipped := Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	run := skipped.State.Runs[0]
	assert.Equal(t, "done", run.Stage)
	assert.Equal(t, model.StageSkipped, run.Stages["review"].Status)
	assert.Equal(t, model.StageCancelled, run.Stages["sec-review"].Status)
	assert.Equal(t, model.StageCancelled, run.Stages["perf-review"].Status)

	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "alice", Body: "/pipeline cancel", CreatedAt: t0.Add(time.Hour)}}
	cancelled := Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	run = cancelled.State.Runs[0]
	assert.Equal(t, model.RunCancelled, run.Status)
	assert.Equal(t, model.StageCancelled, run.Stages["sec-review"].Status)
	late := Step(cfg, cancelled.State, reportOn(cancelled.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil), f, t0.Add(2*time.Hour))
	assert.True(t, logged(late, "refused: the run is cancelled"), late.Log)
}

// A branch of a type that cannot be a branch (the loader refuses it) in a config built by
// hand stops the run loudly.
func TestParallelBranchOfATypeThatCannotBeOneStopsLoudly(t *testing.T) {
	for name, b := range map[string]*lang.Stage{
		`a human branch (branch "h" of stage "review"`: {ID: "h", Type: lang.StageHuman},
		`a loop branch (branch "l" of stage "review"`:  {ID: "l", Type: "loop"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := parallelConfig(t, lang.JoinAll, "sec")
			review := cfg.Pipelines[0].Stages[1]
			review.Branches = append(review.Branches, b)
			f := prFacts()
			res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
			res = dispatched(t, cfg, res, f, t0)
			res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
			run := res.State.Runs[0]
			assert.Equal(t, model.RunFailed, run.Status)
			assert.Contains(t, run.Message, "not supported yet: "+name)
			assert.Empty(t, res.Effects, "no branch is dispatched")
		})
	}
}

// The merge guard: a parallel stage between a gate and the merge opens no way around the
// gate. A state forged to stand at the merge, with the gate failing today, is sent back.
func TestParallelStageDoesNotOpenAPathAroundAGate(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAny, "sec", "perf")
	p := cfg.Pipelines[0]
	review := p.Stages[1]
	// gate first, then review (whose on_any_reject goes back to the gate), then merge.
	gate := &lang.Stage{ID: "done", Type: lang.StageGate, OnPass: "review", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}}
	review.OnComplete = "merge"
	review.OnAnyReject = &lang.Rule{Goto: "done"}
	p.Stages = []*lang.Stage{gate, review, p.Stages[3]}
	f := prFacts() // no "ok" label: the gate does not hold
	forged := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{{
		ID: "loop/7/1", Pipeline: "loop", ConfigOID: "blob1", Subject: "acme/widgets#7", Status: model.RunRunning, Stage: "merge",
		Stages: map[string]*model.StageRun{
			"done":       {Status: model.StagePassed, Attempt: 1},
			"review":     {Status: model.StageSucceeded, Attempt: 1},
			"sec-review": {Status: model.StageSucceeded, Attempt: 1, Parent: "review", ParentAttempt: 1, Verdict: lang.VerdictApprove},
			"merge":      {Status: model.StageWaiting, Attempt: 1},
		},
		VerifiedSHA: f.PR.HeadSHA, VerifiedBy: "done", StartedAt: t0, UpdatedAt: t0,
	}}}
	res := Step(cfg, forged, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Minute))
	for _, e := range res.Effects {
		assert.NotEqual(t, model.EffectMerge, e.Kind, "no merge without the gate")
	}
	assert.Equal(t, "done", res.State.Runs[0].Stage)

	// With the gate holding, the run goes through the parallel stage to the merge.
	f = prFacts("ok")
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, "review", res.State.Runs[0].Stage)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "perf-review", 1, lang.VerdictApprove, nil), f, t0.Add(time.Minute))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)
}

func TestParallelSkipsABranchWhoseConditionDoesNotHold(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	review := cfg.Pipelines[0].Stages[1]
	review.Branches[0].Condition = &lang.Predicate{LabelsInclude: []string{"security"}}
	f := prFacts()
	res := atReview(t, cfg, f)
	require.Len(t, res.Effects, 1, "the skipped branch is not dispatched")
	assert.Equal(t, "loop/7/1/perf-review/1/dispatch", res.Effects[0].Key)
	run := res.State.Runs[0]
	assert.Equal(t, model.StageSkipped, run.Stages["sec-review"].Status)
	assert.Contains(t, run.Stages["sec-review"].Message, `label "security" is not on the pull request`)
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	// A report for the skipped branch is refused.
	late := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictApprove, nil), f, t0.Add(2*time.Minute))
	assert.True(t, logged(late, `branch "sec-review" of stage "review" was skipped`), late.Log)
	// join all does not wait for the skipped branch.
	res = Step(cfg, late.State, reportOn(late.State, "loop/7/1", "perf-review", 1, lang.VerdictApprove, nil), f, t0.Add(3*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, "done", run.Stage)
	assert.Contains(t, run.History[len(run.History)-1].Why, "1 of 1 branch succeeded, 1 skipped")

	// With the label, both branches run.
	f = prFacts("security")
	res = atReview(t, cfg, f)
	assert.Len(t, res.Effects, 2)
	assert.True(t, res.State.Runs[0].Stages["sec-review"].ConditionChecked)

	// Every branch skipped: nothing to wait for, the join is met.
	review.Branches[1].Condition = &lang.Predicate{LabelsInclude: []string{"perf"}}
	f = prFacts()
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	assert.Equal(t, "done", res.State.Runs[0].Stage)
	assert.Empty(t, res.Effects)
}

// The approvals ledger counts the review branches of a parallel stage: those that ran, not
// those skipped or cancelled once the join was met; a rejecting branch keeps it unmet.
func TestParallelBranchesInTheLedger(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAny, "sec", "perf", "style")
	p := cfg.Pipelines[0]
	run := &model.Run{ID: "loop/7/1", Pipeline: "loop", Stage: "done", Status: model.RunRunning, Stages: map[string]*model.StageRun{
		"review":       {Status: model.StageSucceeded, Attempt: 1},
		"sec-review":   {Status: model.StageSucceeded, Attempt: 1, Parent: "review", ParentAttempt: 1, Verdict: lang.VerdictApprove, HeadSHA: "aaaaaaaaaa"},
		"perf-review":  {Status: model.StageCancelled, Attempt: 1, Parent: "review", ParentAttempt: 1},
		"style-review": {Status: model.StageSkipped, Attempt: 1, Parent: "review", ParentAttempt: 1},
	}}
	e := &eval{&core.Eval{Cfg: cfg, Facts: prFacts()}}
	l := e.ledger(p, run)
	assert.Equal(t, []model.LedgerStage{{Stage: "sec-review", Kind: lang.StageAgent, Met: true}}, l.Stages)
	assert.Equal(t, []model.LedgerEntry{{Stage: "sec-review", Who: "agent:sec", Verdict: lang.VerdictApprove, SHA: "aaaaaaaaaa"}}, l.Entries)

	run.Stages["perf-review"] = &model.StageRun{Status: model.StageFailed, Attempt: 1, Parent: "review", ParentAttempt: 1, Verdict: lang.VerdictReject, HeadSHA: "aaaaaaaaaa"}
	l = e.ledger(p, run)
	require.Len(t, l.Stages, 2)
	assert.Equal(t, model.LedgerStage{Stage: "perf-review", Kind: lang.StageAgent, Why: "agent perf has not approved"}, l.Stages[1])

	e.Facts.PR.HeadSHA = "bbbbbbbbbb"
	l = e.ledger(p, run)
	assert.Equal(t, "agent sec approved an older commit", l.Stages[0].Why)

	// The parallel stage made stale by invalidate_and_restart: its branches' approvals are stale.
	e.Facts.PR.HeadSHA = "aaaaaaaaaa"
	run.Stages["review"].Status, run.Stages["review"].Stale = model.StageStale, &model.Stale{At: t0, Why: "invalidated on pull_request.labeled (delivery)"}
	l = e.ledger(p, run)
	assert.Equal(t, model.LedgerStage{Stage: "sec-review", Kind: lang.StageAgent, Why: "agent sec's approval is stale (invalidated on pull_request.labeled (delivery))"}, l.Stages[0])
	assert.Empty(t, l.Entries)
	assert.Equal(t, lang.VerdictApprove, run.Stages["sec-review"].Verdict, "the ledger reads the run, it does not change it")
}

// A branch that fails at once (its agent is not in the config) decides join all before the
// other branches' dispatches are sent: nothing is asked for the cancelled branches.
func TestParallelJoinDecidedAtOnceAsksNothingForCancelledBranches(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	cfg.Pipelines[0].Stages[1].Branches[0].Agent = "gone"
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "sec-review failed")
	assert.Equal(t, model.StageFailed, run.Stages["sec-review"].Status)
	assert.Contains(t, run.Stages["sec-review"].Message, `agent "gone" is not in the config`)
	assert.Equal(t, model.StageCancelled, run.Stages["perf-review"].Status)
	assert.Empty(t, res.Effects, "the cancelled branch's dispatch is not sent")
	assert.Empty(t, run.Intents)
}
