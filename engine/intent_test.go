package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/snapshot"
	"github.com/org/pipeline-action/engine/lang"
)

// decideMerge starts the auto-merge run of stepConfig on a PR whose gate holds: the
// result asks for the merge.
func decideMerge(t *testing.T, st *model.State, key string, now time.Time) model.Result {
	t.Helper()
	res := Step(stepConfig(), st, model.Input{Key: key, Event: "pull_request.opened", Deadline: now.Add(5 * time.Minute)}, prFacts("ok"), now)
	require.Len(t, res.Effects, 1)
	require.Equal(t, model.EffectMerge, res.Effects[0].Kind)
	return res
}

func TestIntentWrittenWithTheMerge(t *testing.T) {
	res := decideMerge(t, nil, "k1", t0)
	eff := res.Effects[0]
	assert.True(t, eff.WriteAhead, "a merge is saved as intended before it is performed")
	assert.True(t, res.Changed)
	run := res.State.Runs[0]
	require.Len(t, run.Intents, 1)
	assert.Equal(t, model.Intent{Key: eff.Key, Kind: model.EffectMerge, Stage: "merge", Attempt: 1, SHA: "aaaaaaaaaa", Try: 1,
		At: t0, Until: t0.Add(5*time.Minute + model.IntentGrace)}, run.Intents[0])
	assert.Equal(t, model.StageActing, run.Stages["merge"].Status)

	// Without a deadline, the intent is in flight for the default lease.
	res = Step(stepConfig(), nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	assert.Equal(t, t0.Add(model.DefaultIntentLease+model.IntentGrace), res.State.Runs[0].Intents[0].Until)
}

func TestIntentNotWrittenForLabels(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{{Name: "hold", Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
		{ID: "hold", Type: lang.StageAction, Action: lang.ActionAddLabel, Config: lang.ActionConfig{Labels: []string{"hold"}}, OnSuccess: "drop"},
		{ID: "drop", Type: lang.StageAction, Action: lang.ActionRemoveLabel, Config: lang.ActionConfig{Labels: []string{"wip"}}},
	}}}}
	in := model.Input{Key: "k1", Event: "pull_request.labeled"}
	res := Step(cfg, nil, in, prFacts("wip"), t0)
	require.Len(t, res.Effects, 1)
	assert.False(t, res.Effects[0].WriteAhead, "adding a label is idempotent")
	assert.False(t, model.HasWriteAhead(res.Effects))
	assert.Empty(t, res.State.Runs[0].Intents)
	res = Settle(cfg, res.State, in, []model.Outcome{{Key: res.Effects[0].Key}}, prFacts("wip", "hold"), t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectRemoveLabel, res.Effects[0].Kind)
	assert.False(t, res.Effects[0].WriteAhead, "removing a label is idempotent")
	assert.Empty(t, res.State.Runs[0].Intents)
}

// Two invocations read the same state and facts at once and both decide the merge. The
// first saves its state (with the intent) and performs the merge; the second's save
// conflicts, and evaluated again on the saved state it asks for nothing.
func TestIntentRacingInvocationsMergeOnce(t *testing.T) {
	cfg := stepConfig()
	base := Step(cfg, nil, model.Input{Key: "k0", Event: "pull_request.opened"}, prFacts(), t0)
	require.Empty(t, base.Effects)

	in1 := model.Input{Key: "k1", Event: "pull_request.labeled", Deadline: t0.Add(5 * time.Minute)}
	in2 := model.Input{Key: "k2", Event: "pull_request_review.submitted", Deadline: t0.Add(5 * time.Minute)}
	first := Step(cfg, base.State, in1, prFacts("ok"), t0)
	second := Step(cfg, base.State, in2, prFacts("ok"), t0)
	require.Len(t, first.Effects, 1)
	require.Len(t, second.Effects, 1, "both decide the merge")
	assert.Equal(t, first.Effects[0].Key, second.Effects[0].Key)
	assert.True(t, first.Effects[0].WriteAhead)

	// The first's state is saved; the second evaluates again on it, at once and later,
	// while the merge may still be under way.
	for _, at := range []time.Duration{0, time.Second, 5 * time.Minute} {
		again := Step(cfg, first.State, in2, prFacts("ok"), t0.Add(at))
		assert.Empty(t, again.Effects, "no second merge %s later", at)
		assert.False(t, again.Changed, "nothing to save %s later", at)
		assert.Equal(t, first.State.Runs[0].Intents, again.State.Runs[0].Intents)
	}

	// The first records its outcome: done, and nothing more is asked for.
	merged := prFacts("ok")
	merged.PR.State = model.PRMerged
	done := Settle(cfg, first.State, in1, []model.Outcome{{Key: first.Effects[0].Key}}, merged, t0)
	assert.Empty(t, done.Effects)
	run := done.State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status)
	assert.Empty(t, run.Intents)
	assert.Contains(t, run.Applied, first.Effects[0].Key)
}

// The merge went out, but its outcome was never recorded: on the next load the facts say
// it happened, whatever the event, and the run carries on as Settle would have.
func TestIntentMergedReconcilesToCompletion(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	key := res.Effects[0].Key
	merged := prFacts("ok")
	merged.PR.State = model.PRMerged
	for _, tc := range []struct {
		name  string
		event string
		at    time.Duration
	}{
		{"in flight, on its closed event (a cancel reaction)", "pull_request.closed", time.Second},
		{"in flight, on another event", "status", time.Second},
		{"long after", "status", time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := Step(cfg, res.State, model.Input{Key: "k2", Event: tc.event}, merged, t0.Add(tc.at))
			assert.Empty(t, next.Effects)
			run := next.State.Runs[0]
			assert.Equal(t, model.RunCompleted, run.Status)
			assert.Equal(t, model.StageSucceeded, run.Stages["merge"].Status)
			assert.Empty(t, run.Intents)
			assert.Contains(t, run.Applied, key)
			assert.Equal(t, "merged", run.History[len(run.History)-1].Why)
		})
	}
}

// The invocation that asked for the merge ended without recording what happened, and the
// pull request is not merged: the merge is asked for again, but only under a rewritten
// intent, which the caller must save before performing it — so of two invocations that
// both find the abandoned intent, only one merges.
func TestIntentUnknownOutcomeIsAskedForAgainUnderANewIntent(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	old := res.State.Runs[0].Intents[0]

	// Before the invocation has surely ended: nothing.
	wait := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), old.Until.Add(-time.Second))
	assert.Empty(t, wait.Effects)
	assert.False(t, wait.Changed)

	later := old.Until.Add(time.Minute)
	in := model.Input{Key: "k3", Event: "status", Deadline: later.Add(5 * time.Minute)}
	a := Step(cfg, res.State, in, prFacts("ok"), later)
	require.Len(t, a.Effects, 1)
	assert.Equal(t, old.Key, a.Effects[0].Key)
	assert.True(t, a.Effects[0].WriteAhead)
	assert.True(t, a.Changed)
	require.Len(t, a.State.Runs[0].Intents, 1)
	it := a.State.Runs[0].Intents[0]
	assert.Equal(t, 2, it.Try)
	assert.Equal(t, later, it.At)
	assert.Equal(t, later.Add(5*time.Minute+model.IntentGrace), it.Until)
	assert.Equal(t, "aaaaaaaaaa", it.SHA)

	// A second invocation finds the same abandoned intent at the same moment; the first
	// one's save wins, and on its state the second asks for nothing.
	b := Step(cfg, res.State, model.Input{Key: "k4", Event: "check_run.completed"}, prFacts("ok"), later)
	require.Len(t, b.Effects, 1)
	again := Step(cfg, a.State, model.Input{Key: "k4", Event: "check_run.completed"}, prFacts("ok"), later)
	assert.Empty(t, again.Effects)
	assert.False(t, again.Changed)
}

// Asked for again, the merge goes through the guard on today's facts first: an abandoned
// intent grants nothing.
func TestIntentAbandonedMergeIsGuardedAgain(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	until := res.State.Runs[0].Intents[0].Until

	moved := prFacts("ok")
	moved.PR.HeadSHA = "bbbbbbbbbb"
	// In flight, the head moved: the merge asked for will be refused; the run waits for it.
	wait := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.synchronize"}, moved, t0.Add(time.Second))
	assert.Empty(t, wait.Effects)
	assert.Equal(t, "merge", wait.State.Runs[0].Stage)

	// Its invocation ended: the head moved after the gate passed, so back to the gate,
	// which holds on the new head; the merge of the new head is a new attempt of the stage.
	next := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.synchronize"}, moved, until)
	require.Len(t, next.Effects, 1)
	assert.Equal(t, "auto-merge/7/1/merge/2/merge_pr", next.Effects[0].Key)
	assert.Equal(t, "bbbbbbbbbb", next.Effects[0].SHA)
	run := next.State.Runs[0]
	require.Len(t, run.Intents, 1)
	assert.Equal(t, model.Intent{Key: "auto-merge/7/1/merge/2/merge_pr", Kind: model.EffectMerge, Stage: "merge", Attempt: 2, SHA: "bbbbbbbbbb",
		Try: 1, At: until, Until: until.Add(model.DefaultIntentLease + model.IntentGrace)}, run.Intents[0])
	var whys []string
	for _, h := range run.History {
		whys = append(whys, h.Why)
	}
	assert.Contains(t, whys, `head moved from aaaaaaa to bbbbbbb after gate "ready" passed; checking again`)

	// The label that passed the gate is gone: no merge either.
	next = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.unlabeled"}, prFacts(), until)
	assert.Empty(t, next.Effects)
	assert.Equal(t, "ready", next.State.Runs[0].Stage)
	assert.Empty(t, next.State.Runs[0].Intents)

	// Closed without merging, its closed event lost: the merge cannot happen, and the run is
	// cancelled by the next event.
	closed := prFacts("ok")
	closed.PR.State = model.PRClosed
	next = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, closed, until)
	assert.Empty(t, next.Effects)
	assert.Equal(t, model.RunCancelled, next.State.Runs[0].Status)
	assert.Empty(t, next.State.Runs[0].Intents)
}

func commentConfig() *lang.Config {
	return &lang.Config{Pipelines: []*lang.Pipeline{{
		Name: "thank", Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{{ID: "say", Type: lang.StageAction, Action: lang.ActionComment, Config: lang.ActionConfig{Body: "Thanks!"}, OnSuccess: lang.TargetComplete}},
	}}}
}

func TestIntentCommentReconciledFromItsMarker(t *testing.T) {
	cfg := commentConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.True(t, eff.WriteAhead, "a comment is saved as intended before it is posted")
	require.Len(t, res.State.Runs[0].Intents, 1)
	until := res.State.Runs[0].Intents[0].Until

	// Posted: done without posting, in flight or not.
	posted := prFacts()
	posted.PR.Posted = model.PostedEffects("Thanks!\n\n" + model.EffectMarker(eff.Key))
	for _, at := range []time.Time{t0, until.Add(time.Hour)} {
		done := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, posted, at)
		assert.Empty(t, done.Effects)
		run := done.State.Runs[0]
		assert.Equal(t, model.RunCompleted, run.Status)
		assert.Empty(t, run.Intents)
		assert.Contains(t, run.Applied, eff.Key)
	}

	// Not there while it may still be being posted: nothing.
	wait := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts(), t0.Add(time.Second))
	assert.Empty(t, wait.Effects)
	assert.False(t, wait.Changed)

	// Not there, and its invocation ended: posted again with the same key (its marker makes
	// the next load see it), under a rewritten intent.
	again := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts(), until)
	require.Len(t, again.Effects, 1)
	assert.Equal(t, eff.Key, again.Effects[0].Key)
	assert.Equal(t, "Thanks!", again.Effects[0].Body)
	assert.True(t, again.Effects[0].WriteAhead)
	require.Len(t, again.State.Runs[0].Intents, 1)
	assert.Equal(t, 2, again.State.Runs[0].Intents[0].Try)
}

// An outcome clears its intent, success or refusal; a refused merge tried again on the
// next event is written ahead again.
func TestIntentClearedBySettle(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	key := res.Effects[0].Key
	refused := Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: key, Err: "merge refused (405): not mergeable"}}, prFacts("ok"), t0)
	run := refused.State.Runs[0]
	assert.Empty(t, run.Intents)
	assert.Equal(t, model.StageRetrying, run.Stages["merge"].Status)

	retry := Step(cfg, refused.State, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), t0.Add(time.Second))
	require.Len(t, retry.Effects, 1)
	assert.True(t, retry.Effects[0].WriteAhead)
	require.Len(t, retry.State.Runs[0].Intents, 1)
	assert.Equal(t, 1, retry.State.Runs[0].Intents[0].Try, "a refusal is a known outcome")

	// An outcome for a run that has moved on is ignored, and clears nothing of it.
	moved := Settle(cfg, retry.State, model.Input{}, []model.Outcome{{Key: "auto-merge/7/1/merge/9/merge_pr"}}, prFacts("ok"), t0)
	assert.Len(t, moved.State.Runs[0].Intents, 1)
}

// A run that ends while its effect is in flight keeps no intent, and asks for nothing again.
func TestIntentDroppedWhenTheRunEnds(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	closed := prFacts("ok")
	closed.PR.State = model.PRClosed
	next := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.closed"}, closed, t0.Add(time.Second))
	run := next.State.Runs[0]
	assert.Equal(t, model.RunCancelled, run.Status)
	assert.Empty(t, run.Intents)
	assert.Empty(t, next.Effects)
}

// While a run's effect is in flight, the runs of later priority wait, as they wait
// for an effect asked for in the same evaluation.
func TestIntentInFlightHoldsLaterRuns(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{
		{Name: "notice", Priority: 10, Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
			{ID: "say", Type: lang.StageAction, Action: lang.ActionComment, Config: lang.ActionConfig{Body: "Held."}, OnSuccess: lang.TargetComplete},
		}},
		{Name: "merge", Priority: 20, Trigger: lang.Trigger{Event: "pull_request.labeled"}, Stages: []*lang.Stage{
			{ID: "ready", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
		}},
	}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.labeled"}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	require.Equal(t, model.EffectComment, res.Effects[0].Kind)
	next := Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), t0.Add(time.Second))
	assert.Empty(t, next.Effects, "the merge waits for the comment's outcome")
	assert.Contains(t, next.Log, "1 run after notice/7/1 wait for the outcome of notice/7/1/say/1/comment")
}

// An intent that no longer belongs where its run stands is dropped, and asks for nothing.
func TestIntentOfAnotherStageIsDropped(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	st := snapshot.Clone(res.State)
	st.Runs[0].Intents[0].Attempt = 9
	next := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), t0.Add(time.Second))
	require.Len(t, next.Effects, 1, "the stage asks for its own merge, under its own intent")
	require.Len(t, next.State.Runs[0].Intents, 1)
	assert.Equal(t, 1, next.State.Runs[0].Intents[0].Attempt)
}

// Step and Settle never change the state they are given, intents included.
func TestIntentPure(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	before := string(model.MustJSON(res.State))
	merged := prFacts("ok")
	merged.PR.State = model.PRMerged
	Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, merged, t0.Add(time.Hour))
	Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key}}, merged, t0)
	assert.Equal(t, before, string(model.MustJSON(res.State)))
}

// An invocation performed the merge it saved as intended, but its save of the outcome
// conflicted (another event was saved meanwhile). It reads the state anew and evaluates
// again with the outcomes it knows: they are recorded against their intents before
// anything else, and nothing is asked for again.
func TestIntentOutcomesOfThisInvocationAfterAConflict(t *testing.T) {
	cfg := stepConfig()
	res := decideMerge(t, nil, "k1", t0)
	key := res.Effects[0].Key
	// Meanwhile another event was saved on the intent's state (the run waited on it).
	other := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, prFacts("ok", "nice"), t0.Add(time.Second))
	require.Empty(t, other.Effects)
	require.Len(t, other.State.Runs[0].Intents, 1)

	t.Run("refused", func(t *testing.T) {
		in := model.Input{Key: "k1", Event: "pull_request.opened", Outcomes: []model.Outcome{{Key: key, Err: "merge refused (405): not mergeable"}}}
		again := Step(cfg, other.State, in, prFacts("ok"), t0.Add(2*time.Second))
		assert.Empty(t, again.Effects, "a refused merge waits for the next event")
		run := again.State.Runs[0]
		assert.Empty(t, run.Intents)
		assert.Equal(t, model.StageRetrying, run.Stages["merge"].Status)
		assert.Contains(t, run.Stages["merge"].Message, "not mergeable; tried 1 time; trying again on the next event")
		assert.True(t, again.Changed)

		// Once recorded, the same outcome again changes nothing.
		twice := Step(cfg, again.State, in, prFacts("ok"), t0.Add(2*time.Second))
		assert.Equal(t, 1, twice.State.Runs[0].Stages["merge"].Tries)
	})
	t.Run("done", func(t *testing.T) {
		in := model.Input{Key: "k1", Event: "pull_request.opened", Outcomes: []model.Outcome{{Key: key}}}
		// The facts read anew may or may not show the merge yet.
		merged := prFacts("ok")
		merged.PR.State = model.PRMerged
		for _, f := range []*model.Facts{prFacts("ok"), merged} {
			again := Step(cfg, other.State, in, f, t0.Add(2*time.Second))
			assert.Empty(t, again.Effects)
			run := again.State.Runs[0]
			assert.Equal(t, model.RunCompleted, run.Status)
			assert.Contains(t, run.Applied, key)
			assert.Empty(t, run.Intents)
		}
	})
	t.Run("refused, but the facts show it merged", func(t *testing.T) {
		merged := prFacts("ok")
		merged.PR.State = model.PRMerged
		in := model.Input{Key: "k1", Event: "pull_request.opened", Outcomes: []model.Outcome{{Key: key, Err: "merge refused (405): not mergeable"}}}
		again := Step(cfg, other.State, in, merged, t0.Add(2*time.Second))
		assert.Equal(t, model.RunCompleted, again.State.Runs[0].Status)
	})
}

// No intent holds its run longer than MaxIntentLease after it was asked for, whatever
// deadline it carries.
func TestIntentLeaseIsBounded(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened", Deadline: t0.Add(30 * 24 * time.Hour)}, prFacts("ok"), t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, t0.Add(model.MaxIntentLease), res.State.Runs[0].Intents[0].Until)

	st := snapshot.Clone(res.State)
	st.Runs[0].Intents[0].Until = t0.Add(100 * 365 * 24 * time.Hour)
	wait := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), t0.Add(model.MaxIntentLease-time.Second))
	assert.Empty(t, wait.Effects)
	again := Step(cfg, st, model.Input{Key: "k2", Event: "status"}, prFacts("ok"), t0.Add(model.MaxIntentLease))
	require.Len(t, again.Effects, 1, "asked for again once the longest job has surely ended")
	assert.Equal(t, 2, again.State.Runs[0].Intents[0].Try)
}
