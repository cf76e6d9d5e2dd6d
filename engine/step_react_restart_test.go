package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// approvalsCheck passes when the run's ledger has review stages and all are met, as
// pr_approvals_met does.
func approvalsCheck() Check {
	return checkFunc(func(f *model.Facts) model.GateResult {
		if f.Ledger == nil || len(f.Ledger.Stages) == 0 {
			return model.GateResult{Status: model.GatePending, Message: "no ledger"}
		}
		for _, s := range f.Ledger.Stages {
			if !s.Met {
				return model.GateResult{Status: model.GatePending, Message: s.Why}
			}
		}
		return model.GateResult{Status: model.GatePass, Message: "approved"}
	})
}

// restartConfig is review (agent) → approved (approvals, label "ok") → merge, restarted
// from review on a push.
func restartConfig(restartFrom string) *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Agents: []*lang.Agent{{Name: "reviewer", Dispatch: lang.DispatchWorkflow, Workflow: "review.yml"}},
		Pipelines: []*lang.Pipeline{{
			Name:    "review",
			Trigger: lang.Trigger{Event: "pull_request.opened"},
			OnEvents: []lang.EventReaction{
				{Event: "pull_request.synchronize", Action: lang.ReactInvalidateAndRestart, Invalidate: []string{"review"}, RestartFrom: restartFrom},
				{Event: "pull_request.closed", Action: lang.ReactCancel},
			},
			Stages: []*lang.Stage{
				{ID: "review", Type: lang.StageAgent, Agent: "reviewer", AgentAction: "review", OnComplete: "approved"},
				{ID: "approved", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{
					{Check: "approvals", Eval: approvalsCheck()}, {Check: "ok", Eval: labelCheck("ok")}}},
				{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "merge"}, OnSuccess: lang.TargetComplete},
			},
		}}}
}

func headFacts(sha string, labels ...string) *model.Facts {
	f := prFacts(labels...)
	f.PR.HeadSHA = sha
	return f
}

// approvedRun plays the run to the approvals gate: review dispatched, approved on head aaaa.
func approvedRun(t *testing.T, cfg *lang.Config) *model.State {
	t.Helper()
	f := headFacts("aaaaaaaaaa")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "review/7/1", "review", 1, lang.VerdictApprove, map[string]any{"notes": "fine"}), f, t0.Add(time.Minute))
	require.Empty(t, res.Effects)
	run := res.State.Runs[0]
	require.Equal(t, "approved", run.Stage, "waits for the label")
	return res.State
}

func lastWhy(run *model.Run) string { return run.History[len(run.History)-1].Why }

func TestInvalidateAndRestartOnPush(t *testing.T) {
	cfg := restartConfig("review")
	st := approvedRun(t, cfg)
	pushed := headFacts("bbbbbbbbbb", "ok")
	res := Step(cfg, st, model.Input{Key: "push-1", Event: "pull_request.synchronize"}, pushed, t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage, "restarted from review")
	sr := run.Stages["review"]
	assert.Equal(t, 2, sr.Attempt)
	assert.Equal(t, "", sr.Verdict)
	assert.Nil(t, sr.Outputs)
	require.NotNil(t, sr.Stale)
	assert.Equal(t, lang.VerdictApprove, sr.Stale.Verdict)
	assert.Equal(t, "aaaaaaaaaa", sr.Stale.SHA)
	assert.Equal(t, model.StageCancelled, run.Stages["approved"].Status, "the stage it was at is left")
	assert.Contains(t, lastWhy(run), "pull_request.synchronize (head bbbbbbb)")
	assert.Contains(t, lastWhy(run), "the approvals and results of review are stale; restarting from review")
	require.Len(t, res.Effects, 1, "the review is dispatched again, not merged")
	assert.Equal(t, "review/7/1/review/2/dispatch", res.Effects[0].Key)

	// The same push delivered again, or another delivery for the same head: once.
	for _, key := range []string{"push-1", "push-1b"} {
		again := Step(cfg, res.State, model.Input{Key: key, Event: "pull_request.synchronize"}, pushed, t0.Add(2*time.Hour))
		assert.Equal(t, 2, again.State.Runs[0].Stages["review"].Attempt, key)
		for _, e := range again.Effects {
			assert.NotContains(t, e.Key, "/review/3/", key)
		}
	}

	// The new review approves: the gate holds on the new head and the merge goes ahead.
	res = dispatched(t, cfg, res, pushed, t0.Add(time.Hour))
	res = Step(cfg, res.State, reportOn(res.State, "review/7/1", "review", 2, lang.VerdictApprove, nil), pushed, t0.Add(3*time.Hour))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)
	assert.Equal(t, "bbbbbbbbbb", res.Effects[0].SHA)

	// Another push: restarted again (attempt 3).
	third := Step(cfg, res.State, model.Input{Key: "push-2", Event: "pull_request.synchronize"}, headFacts("cccccccccc", "ok"), t0.Add(4*time.Hour))
	assert.Equal(t, 3, third.State.Runs[0].Stages["review"].Attempt)
}

func TestInvalidateStaleApprovalDoesNotMerge(t *testing.T) {
	// A stale approval without a restart (the run escalated): the gate does not hold on it.
	cfg := restartConfig("review")
	st := approvedRun(t, cfg)
	st.Runs[0].Status = model.RunEscalated
	res := Step(cfg, st, model.Input{Key: "push-1", Event: "pull_request.synchronize"}, headFacts("aaaaaaaaaa", "ok"), t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status, "an escalated run waits for a person")
	assert.Equal(t, "approved", run.Stage)
	assert.Equal(t, model.StageStale, run.Stages["review"].Status)
	assert.Contains(t, lastWhy(run), "not restarted: the run is escalated")
	assert.Empty(t, res.Effects)
	l := (&eval{&core.Eval{Cfg: cfg, Facts: headFacts("aaaaaaaaaa")}}).ledger(cfg.Pipelines[0], run)
	require.Len(t, l.Stages, 1)
	assert.False(t, l.Stages[0].Met, "the head did not move, and still the approval is stale")
	assert.Contains(t, l.Stages[0].Why, "approval is stale (invalidated on pull_request.synchronize")
}

func TestMergeGuardReadsLedger(t *testing.T) {
	// A run at its merge stage: the guard evaluates the approvals gate against the ledger.
	cfg := restartConfig("review")
	f := headFacts("aaaaaaaaaa", "ok")
	run := &model.Run{ID: "review/7/1", Pipeline: "review", Subject: "acme/widgets#7", Status: model.RunRunning, Stage: "merge",
		VerifiedSHA: "aaaaaaaaaa", VerifiedBy: "approved", Stages: map[string]*model.StageRun{
			"review":   {Status: model.StageSucceeded, Attempt: 1, Verdict: lang.VerdictApprove, HeadSHA: "aaaaaaaaaa"},
			"approved": {Status: model.StagePassed, Attempt: 1},
			"merge":    {Status: model.StageWaiting, Attempt: 1},
		}}
	st := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{run}}
	res := Step(cfg, st, model.Input{Key: "s1", Event: "status"}, f, t0)
	require.Len(t, res.Effects, 1, "an approval that holds lets the merge through")
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)

	// The same run whose review was marked stale (a state saved mid-restart, or forged):
	// the guard sends it back, no merge.
	run.Stages["review"].Stale = &model.Stale{At: t0, Why: "invalidated", Verdict: lang.VerdictApprove}
	run.Stages["review"].Verdict = ""
	res = Step(cfg, st, model.Input{Key: "s2", Event: "status"}, f, t0)
	for _, e := range res.Effects {
		assert.NotEqual(t, model.EffectMerge, e.Kind)
	}
	assert.NotEqual(t, model.RunCompleted, res.State.Runs[0].Status)
}

func TestInvalidateHumanApprovalsOnSameHead(t *testing.T) {
	// invalidate_and_restart on a comment: the head does not move, and the reviews given
	// before it no longer count; a review given after it does.
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{
		Name:    "hr",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		OnEvents: []lang.EventReaction{{Event: "issue_comment.created", Action: lang.ReactInvalidateAndRestart,
			Invalidate: []string{"lead"}, RestartFrom: "current"}},
		Stages: []*lang.Stage{
			{ID: "lead", Type: lang.StageHuman, WaitFor: lang.WaitApproval, Count: 2, OnComplete: "merge"},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "merge"}, OnSuccess: lang.TargetComplete},
		},
	}}}
	f := headFacts("aaaaaaaaaa")
	f.PR.Reviews = []model.Review{{Author: "bob", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", CanPush: true, SubmittedAt: t0.Add(time.Minute)}}
	f.People.Permissions = map[string]string{"maint": "maintain", "rando": "read"}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, "lead", res.State.Runs[0].Stage)
	// Someone without write permission comments: nothing is invalidated.
	rando := Step(cfg, res.State, model.Input{Key: "c0", Event: "issue_comment.created", Actor: "rando"}, f, t0.Add(time.Hour))
	assert.False(t, rando.Changed)
	assert.Contains(t, rando.Log, "run hr/7/1: on_events issue_comment.created invalidate_and_restart: the event is by @rando, whose permission is read; it needs write (settings.chatops.permission); not restarted")
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created", Actor: "maint"}, f, t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, 2, run.Stages["lead"].Attempt, "restart_from current: a new attempt")
	assert.Contains(t, lastWhy(run), "issue_comment.created (delivery): the approvals and results of lead are stale; restarting from lead")

	f.PR.Reviews = append(f.PR.Reviews, model.Review{Author: "carol", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", CanPush: true, SubmittedAt: t0.Add(2 * time.Hour)})
	res = Step(cfg, res.State, model.Input{Key: "r1", Event: "pull_request_review.submitted"}, f, t0.Add(2*time.Hour))
	run = res.State.Runs[0]
	assert.Equal(t, "lead", run.Stage, "bob's approval is stale: one of two")
	assert.Empty(t, res.Effects)
	msgs := ""
	for _, r := range run.Stages["lead"].Results {
		msgs += r.Message + "\n"
	}
	assert.Contains(t, msgs, "bob's approval is stale")

	// bob approves again after the invalidation: two of two, the merge goes ahead.
	f.PR.Reviews[0].SubmittedAt = t0.Add(3 * time.Hour)
	res = Step(cfg, res.State, model.Input{Key: "r2", Event: "pull_request_review.submitted"}, f, t0.Add(3*time.Hour))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)

	// The same comment delivery again: not restarted twice.
	again := Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created", Actor: "maint"}, f, t0.Add(3*time.Hour))
	assert.Equal(t, "merge", again.State.Runs[0].Stage)
}

func TestInvalidateAndRestartFinishedRunAndOldState(t *testing.T) {
	cfg := restartConfig("current")
	// A finished run is not restarted.
	done := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{{ID: "review/7/1", Pipeline: "review",
		Subject: "acme/widgets#7", Status: model.RunCompleted, Stage: "merge", Stages: map[string]*model.StageRun{
			"review": {Status: model.StageSucceeded, Attempt: 1, Verdict: lang.VerdictApprove}}}}}
	res := Step(cfg, done, model.Input{Key: "p1", Event: "pull_request.synchronize"}, headFacts("bbbbbbbbbb"), t0)
	assert.False(t, res.Changed)
	assert.Empty(t, res.Effects)

	// A state written before reactions restarted runs (no stale, no applied keys): the run
	// at its review restarts with a new attempt of it (restart_from: current).
	old := `{"version":1,"subject":"acme/widgets#7","seq":3,"runs":[{"id":"review/7/1","pipeline":"review",
	"subject":"acme/widgets#7","status":"waiting","stage":"review","stages":{"review":{"status":"waiting",
	"attempt":1,"entered_at":"2026-01-05T09:00:00Z","head_sha":"aaaaaaaaaa"}},"started_at":"2026-01-05T09:00:00Z",
	"updated_at":"2026-01-05T09:00:00Z","applied":["review/7/1/review/1/dispatch"]}]}`
	var st model.State
	require.NoError(t, json.Unmarshal([]byte(old), &st))
	res = Step(cfg, &st, model.Input{Key: "p2", Event: "pull_request.synchronize"}, headFacts("bbbbbbbbbb"), t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, 2, run.Stages["review"].Attempt)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "review/7/1/review/2/dispatch", res.Effects[0].Key)
	assert.True(t, strings.HasSuffix(lastWhy(run), "restarting from review"))
	// A late report for the first attempt is refused.
	late := Step(cfg, res.State, reportOn(res.State, "review/7/1", "review", 1, lang.VerdictApprove, nil), headFacts("bbbbbbbbbb"), t0.Add(2*time.Hour))
	assert.Equal(t, "", late.State.Runs[0].Stages["review"].Verdict)
}

func TestValidateReactionWarnings(t *testing.T) {
	cfg := loadYAML(t, `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    on_events:
      pull_request.synchronize: {action: invalidate_and_restart, invalidate: [a, c], restart_from: b}
    stages:
      - {id: a, type: gate, conditions: [{check: no_changes_requested}]}
      - {id: b, type: gate, conditions: [{check: no_changes_requested}]}
      - {id: c, type: action, action: merge_pr}
`)
	require.Len(t, cfg.Warnings, 1)
	assert.Equal(t, `the "pull_request.synchronize" reaction of pipeline "p" makes stage "a" stale but restarts from "b", after it: its approval is not asked for again`,
		cfg.Warnings[0].Message)
}

func TestInvalidateAndRestartWhileMergeInFlight(t *testing.T) {
	cfg := restartConfig("review")
	st := approvedRun(t, cfg)
	ok := headFacts("aaaaaaaaaa", "ok")
	res := Step(cfg, st, model.Input{Key: "l1", Event: "pull_request.labeled"}, ok, t0.Add(time.Minute))
	require.Len(t, res.Effects, 1)
	require.Equal(t, model.EffectMerge, res.Effects[0].Kind)
	require.Len(t, res.State.Runs[0].Intents, 1, "the merge is in flight")

	// A push arrives while the merge is in flight: the run restarts all the same (GitHub
	// refuses a merge of the old head); the review waits for the intent's outcome.
	pushed := headFacts("bbbbbbbbbb", "ok")
	res = Step(cfg, res.State, model.Input{Key: "p1", Event: "pull_request.synchronize"}, pushed, t0.Add(2*time.Minute))
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage)
	assert.Empty(t, res.Effects, "nothing more while the merge's outcome is unknown")
	// Its outcome arrives refused (the head moved): the review is dispatched.
	res = Settle(cfg, res.State, model.Input{Key: "p1"}, []model.Outcome{{Key: "review/7/1/merge/1/merge_pr", Err: "409 head moved", Permanent: true}}, pushed, t0.Add(2*time.Minute))
	next := Step(cfg, res.State, model.Input{Key: "s1", Event: "status"}, pushed, t0.Add(3*time.Minute))
	require.Len(t, next.Effects, 1)
	assert.Equal(t, "review/7/1/review/2/dispatch", next.Effects[0].Key)
	assert.NotEqual(t, model.RunCompleted, next.State.Runs[0].Status)
}

// A push's restart makes only approvals of older heads stale: when its job runs after a
// quick review of the new head, that review still counts.
func TestPushRestartKeepsAnApprovalOfTheNewHead(t *testing.T) {
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{
		Name:    "hr",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		OnEvents: []lang.EventReaction{{Event: "pull_request.synchronize", Action: lang.ReactInvalidateAndRestart,
			Invalidate: []string{"lead"}, RestartFrom: "lead"}},
		Stages: []*lang.Stage{
			{ID: "lead", Type: lang.StageHuman, WaitFor: lang.WaitApproval, Count: 2, OnComplete: "merge"},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "merge"}, OnSuccess: lang.TargetComplete},
		},
	}}}
	f := headFacts("aaaaaaaaaa")
	f.PR.Reviews = []model.Review{{Author: "bob", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", CanPush: true, SubmittedAt: t0.Add(time.Minute)}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, "lead", res.State.Runs[0].Stage)

	pushed := headFacts("bbbbbbbbbb")
	pushed.PR.Reviews = []model.Review{
		{Author: "bob", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", CanPush: true, SubmittedAt: t0.Add(time.Minute)},
		{Author: "carol", State: model.ReviewApproved, CommitSHA: "bbbbbbbbbb", CanPush: true, SubmittedAt: t0.Add(2 * time.Hour)},
	}
	res = Step(cfg, res.State, model.Input{Key: "push-1", Event: "pull_request.synchronize"}, pushed, t0.Add(3*time.Hour))
	stale := res.State.Runs[0].Stages["lead"].Stale
	require.NotNil(t, stale)
	assert.Len(t, stale.Reviews, 1, "bob's approval of the old head only")
	assert.Equal(t, model.ReviewKey(pushed.PR.Reviews[0]), stale.Reviews[0])
}
