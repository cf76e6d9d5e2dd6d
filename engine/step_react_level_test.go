package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// noMerge fails the test when effects merge.
func noMerge(t *testing.T, effects []model.Effect, why string) {
	t.Helper()
	for _, e := range effects {
		assert.NotEqual(t, model.EffectMerge, e.Kind, why)
	}
}

// A push whose synchronize event is lost: the next event of any kind finds the new head
// and restarts the run once, before the gate is evaluated on the stale review; later
// events and the synchronize delivered late restart nothing more.
func TestLostPushRestartsOnTheNextEvent(t *testing.T) {
	cfg := restartConfig("review")
	st := approvedRun(t, cfg)
	pushed := headFacts("bbbbbbbbbb", "ok")
	res := Step(cfg, st, model.Input{Key: "label-1", Event: "pull_request.labeled", Actor: "dev"}, pushed, t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, "review", run.Stage, "restarted from review")
	assert.Equal(t, 2, run.Stages["review"].Attempt)
	require.NotNil(t, run.Stages["review"].Stale)
	assert.Equal(t, "aaaaaaaaaa", run.Stages["review"].Stale.SHA)
	assert.Contains(t, lastWhy(run), "pull_request.synchronize (head bbbbbbb, whose event was not seen; on pull_request.labeled)")
	assert.Contains(t, lastWhy(run), "restarting from review")
	require.Len(t, res.Effects, 1, "the review is dispatched again for the new head, not merged")
	assert.Equal(t, "review/7/1/review/2/dispatch", res.Effects[0].Key)

	next := dispatched(t, cfg, res, pushed, t0.Add(time.Hour))
	for i, in := range []model.Input{
		{Key: "label-2", Event: "pull_request.labeled", Actor: "dev"},
		{Key: "status-1", Event: "status"},
		{Key: "push-1", Event: "pull_request.synchronize", Actor: "dev"}, // delivered late
		{Key: "push-1", Event: "pull_request.synchronize", Actor: "dev"}, // and again
	} {
		again := Step(cfg, next.State, in, pushed, t0.Add(time.Duration(2+i)*time.Hour))
		assert.Equal(t, 2, again.State.Runs[0].Stages["review"].Attempt, in.Key)
		assert.Equal(t, "review", again.State.Runs[0].Stage, in.Key)
		assert.Empty(t, again.Effects, in.Key)
		next = again
	}

	// The new review approves: the merge goes ahead on the new head.
	res = Step(cfg, next.State, reportOn(next.State, "review/7/1", "review", 2, lang.VerdictApprove, nil), pushed, t0.Add(7*time.Hour))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)
	assert.Equal(t, "bbbbbbbbbb", res.Effects[0].SHA)
}

// The head a run starts on is not a push to react to, nor is a head that does not move.
func TestLevelRestartNotForTheFirstHead(t *testing.T) {
	cfg := restartConfig("review")
	st := approvedRun(t, cfg) // started on aaaa, events since on aaaa
	res := Step(cfg, st, model.Input{Key: "label-1", Event: "pull_request.labeled"}, headFacts("aaaaaaaaaa"), t0.Add(time.Hour))
	assert.Equal(t, "approved", res.State.Runs[0].Stage)
	assert.Equal(t, 1, res.State.Runs[0].Stages["review"].Attempt)

	// A run started on a head pushed before it started (its trigger came later).
	f := headFacts("bbbbbbbbbb")
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, model.Input{Key: "c1", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Equal(t, 1, res.State.Runs[0].Stages["review"].Attempt)
	assert.Empty(t, res.Effects)
}

// A run that reacted to the delivered push does nothing more for that head on the next event.
func TestLevelRestartNotAfterTheDeliveredPush(t *testing.T) {
	cfg := restartConfig("review")
	st := approvedRun(t, cfg)
	pushed := headFacts("bbbbbbbbbb", "ok")
	res := Step(cfg, st, model.Input{Key: "push-1", Event: "pull_request.synchronize"}, pushed, t0.Add(time.Hour))
	require.Equal(t, 2, res.State.Runs[0].Stages["review"].Attempt)
	res = dispatched(t, cfg, res, pushed, t0.Add(time.Hour))
	res = Step(cfg, res.State, model.Input{Key: "label-1", Event: "pull_request.labeled"}, pushed, t0.Add(2*time.Hour))
	assert.Equal(t, 2, res.State.Runs[0].Stages["review"].Attempt)
	assert.Empty(t, res.Effects)

	// Another push, lost too: the next event restarts for it, once.
	third := headFacts("cccccccccc", "ok")
	res = Step(cfg, res.State, model.Input{Key: "label-2", Event: "pull_request.labeled"}, third, t0.Add(3*time.Hour))
	assert.Equal(t, 3, res.State.Runs[0].Stages["review"].Attempt)
}

// An escalated run has its approvals made stale once and waits; a finished run is left.
func TestLevelRestartEscalatedAndFinished(t *testing.T) {
	cfg := restartConfig("review")
	st := approvedRun(t, cfg)
	st.Runs[0].Status = model.RunEscalated
	pushed := headFacts("bbbbbbbbbb", "ok")
	res := Step(cfg, st, model.Input{Key: "label-1", Event: "pull_request.labeled"}, pushed, t0.Add(time.Hour))
	run := res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Equal(t, "approved", run.Stage)
	assert.Equal(t, model.StageStale, run.Stages["review"].Status)
	assert.Contains(t, lastWhy(run), "whose event was not seen; on pull_request.labeled")
	assert.Contains(t, lastWhy(run), "not restarted: the run is escalated")
	noMerge(t, res.Effects, "escalated")
	n := len(run.History)
	res = Step(cfg, res.State, model.Input{Key: "label-2", Event: "pull_request.labeled"}, pushed, t0.Add(2*time.Hour))
	assert.Len(t, res.State.Runs[0].History, n, "once per head")

	done := approvedRun(t, cfg)
	done.Runs[0].Status = model.RunCompleted
	res = Step(cfg, done, model.Input{Key: "label-1", Event: "pull_request.labeled"}, pushed, t0.Add(time.Hour))
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	assert.Equal(t, 1, res.State.Runs[0].Stages["review"].Attempt)
	assert.Nil(t, res.State.Runs[0].Stages["review"].Stale)
}

// A review of the new head given before the event that finds the lost push still counts:
// only approvals of older heads are made stale, and it merges the new head at once.
func TestLevelRestartKeepsAnApprovalOfTheNewHead(t *testing.T) {
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{
		Name:    "hr",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		OnEvents: []lang.EventReaction{{Event: "pull_request.synchronize", Action: lang.ReactInvalidateAndRestart,
			Invalidate: []string{"lead"}, RestartFrom: "lead"}},
		Stages: []*lang.Stage{
			{ID: "lead", Type: lang.StageHuman, WaitFor: lang.WaitApproval, Count: 1, OnComplete: "ready"},
			{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, Config: lang.ActionConfig{Method: "merge"}, OnSuccess: lang.TargetComplete},
		},
	}}}
	bob := model.Review{Author: "bob", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", CanPush: true, SubmittedAt: t0.Add(time.Minute)}
	f := headFacts("aaaaaaaaaa")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	f.PR.Reviews = []model.Review{bob}
	res = Step(cfg, res.State, model.Input{Key: "r1", Event: "pull_request_review.submitted"}, f, t0.Add(time.Minute))
	require.Equal(t, "ready", res.State.Runs[0].Stage, "bob approved the old head")

	before := res.State

	// The push is lost; carol approves the new head, then the label the gate waits for comes.
	pushed := headFacts("bbbbbbbbbb", "ok")
	carol := model.Review{Author: "carol", State: model.ReviewApproved, CommitSHA: "bbbbbbbbbb", CanPush: true, SubmittedAt: t0.Add(2 * time.Hour)}
	pushed.PR.Reviews = []model.Review{bob, carol}
	res = Step(cfg, before, model.Input{Key: "l1", Event: "pull_request.labeled"}, pushed, t0.Add(3*time.Hour))
	run := res.State.Runs[0]
	stale := run.Stages["lead"].Stale
	require.NotNil(t, stale)
	assert.Equal(t, []string{model.ReviewKey(bob)}, stale.Reviews, "bob's approval of the old head only")
	require.Len(t, res.Effects, 1, "carol's approval of the new head counts")
	assert.Equal(t, model.EffectMerge, res.Effects[0].Kind)
	assert.Equal(t, "bbbbbbbbbb", res.Effects[0].SHA)

	// Without carol's approval, the run waits at lead: bob's approval is of the old head.
	pushed.PR.Reviews = []model.Review{bob}
	res = Step(cfg, before, model.Input{Key: "l1", Event: "pull_request.labeled"}, pushed, t0.Add(3*time.Hour))
	assert.Equal(t, "lead", res.State.Runs[0].Stage)
	noMerge(t, res.Effects, "no approval of the new head")
}

// Many notifications of a run do not push out the key of its restart for the current head,
// which would restart it again for that head.
func TestLevelRestartKeyKeptAmongNotifications(t *testing.T) {
	cfg := restartConfig("review")
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"alice"}}}
	p := cfg.Pipelines[0]
	p.OnEvents = append(p.OnEvents, lang.EventReaction{Event: "issue_comment.created", Action: lang.ReactNotify,
		Notify: &lang.Notify{Target: mustTemplate("maintainers"), Message: mustTemplate("commented")}})
	st := approvedRun(t, cfg)
	pushed := headFacts("bbbbbbbbbb", "ok")
	res := Step(cfg, st, model.Input{Key: "label-1", Event: "pull_request.labeled"}, pushed, t0.Add(time.Hour))
	res = dispatched(t, cfg, res, pushed, t0.Add(time.Hour))
	require.Equal(t, 2, res.State.Runs[0].Stages["review"].Attempt)
	for i := range model.MaxReactionKeys + 5 {
		res = Step(cfg, res.State, model.Input{Key: fmt.Sprintf("c%d", i), Event: "issue_comment.created"}, pushed, t0.Add(2*time.Hour))
	}
	run := res.State.Runs[0]
	assert.Equal(t, 2, run.Stages["review"].Attempt, "not restarted again for the same head")
	notes := 0
	for _, k := range run.Applied {
		if strings.HasSuffix(k, "/notify") {
			notes++
		}
	}
	assert.Equal(t, model.MaxReactionKeys, notes, "the notifications' keys are bounded")
}
