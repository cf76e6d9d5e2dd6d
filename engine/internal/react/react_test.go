package react

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

var (
	onClose = lang.EventReaction{Event: "pull_request.closed", Action: lang.ReactCancel}
	onPush  = lang.EventReaction{Event: eventPush, Action: lang.ReactInvalidateAndRestart,
		Invalidate: []string{"review"}, RestartFrom: "review"}
)

// A cancel reaction ends the run, unless the pull request was merged by the run itself
// (its merge stage ends it) or by its sub-pipeline's run.
func TestCancel(t *testing.T) {
	p := pipeline(onClose)
	in := model.Input{Key: "c1", Event: "pull_request.closed"}

	run := runAt(p, "lead", "aaaa")
	k := newKernel(config(p), "aaaa", run)
	Run(k, p, run, in)
	assert.Equal(t, []string{"finish cancelled cancelled"}, k.movesOf())
	assert.Equal(t, "cancelled on pull_request.closed", k.moves[0].why)

	run = runAt(p, "lead", "aaaa")
	k = newKernel(config(p), "aaaa", run)
	k.own, k.by = &lang.Stage{ID: "merge"}, "pipeline-bot[bot]"
	Run(k, p, run, in)
	assert.Equal(t, []string{"enter merge"}, k.movesOf(), "the run goes to its merge stage, which ends it")
	assert.Contains(t, k.moves[0].why, "merged by pipeline-bot[bot]")
	assert.Equal(t, model.StageWaiting, run.Stages["lead"].Status, "entering the merge does not cancel the stage it left")

	run = runAt(p, "merge", "aaaa")
	k = newKernel(config(p), "aaaa", run)
	k.own = &lang.Stage{ID: "merge"}
	Run(k, p, run, in)
	assert.Empty(t, k.moves, "at its merge stage already")

	run = runAt(p, "lead", "aaaa")
	k = newKernel(config(p), "aaaa", run)
	k.child = true
	Run(k, p, run, in)
	assert.Empty(t, k.moves)
	assert.True(t, k.logged("merged by its sub-pipeline's run; not cancelled"))
}

// An event no reaction names, and a reaction with nothing of its own to do, ask nothing.
func TestNoReaction(t *testing.T) {
	p := pipeline(onClose, lang.EventReaction{Event: "pull_request.labeled", Action: lang.ReactReevaluate})
	for _, event := range []string{"pull_request.labeled", "pull_request.edited"} {
		run := runAt(p, "lead", "aaaa")
		k := newKernel(config(p), "aaaa", run)
		Run(k, p, run, model.Input{Key: "e", Event: event})
		assert.Empty(t, k.moves, event)
		assert.Empty(t, k.emits, event)
		assert.Equal(t, model.RunRunning, run.Status, event)
	}
}

// A push restarts the run once per head: the stages it invalidates are stale (approvals of
// older heads only), the attempt it was at is cancelled.
func TestRestartOnPushOncePerHead(t *testing.T) {
	p := pipeline(onPush)
	run := runAt(p, "lead", "aaaa")
	k := newKernel(config(p), "bbbb", run)
	old := model.Review{Author: "bob", State: model.ReviewApproved, CommitSHA: "aaaa", SubmittedAt: t0.Add(-time.Minute)}
	fresh := model.Review{Author: "carol", State: model.ReviewApproved, CommitSHA: "bbbb", SubmittedAt: t0}
	k.world.Facts.PR.Reviews = []model.Review{old, fresh}
	push := model.Input{Key: "d1", Event: eventPush, Actor: "mallory"} // whoever pushed
	Run(k, p, run, push)

	assert.Equal(t, []string{"enter review"}, k.movesOf())
	assert.Contains(t, k.moves[0].why, "pull_request.synchronize (head bbbb): the approvals and results of review are stale; restarting from review")
	assert.Equal(t, model.StageCancelled, run.Stages["lead"].Status, "the attempt it was at")
	sr := run.Stages["review"]
	assert.Equal(t, model.StageStale, sr.Status)
	assert.Empty(t, sr.Verdict)
	require.NotNil(t, sr.Stale)
	assert.Equal(t, "approve", sr.Stale.Verdict)
	assert.Equal(t, []string{model.ReviewKey(old)}, sr.Stale.Reviews, "an approval of the pushed head is not stale")
	require.Len(t, run.Applied, 1)

	// The same head again (a redelivery, another delivery of the push): nothing more.
	k.moves = nil
	Run(k, p, run, model.Input{Key: "d2", Event: eventPush})
	assert.Empty(t, k.moves)
	assert.True(t, k.logged("was reacted to already (head bbbb)"))

	// A new head restarts it again.
	k.world.Facts.PR.HeadSHA = "cccc"
	Run(k, p, run, model.Input{Key: "d3", Event: eventPush})
	assert.Equal(t, []string{"enter review"}, k.movesOf())
	assert.Len(t, run.Applied, 2)
}

// On any other event than a push, a restart is once per delivery and needs the chat-ops
// permission of the event's actor.
func TestRestartOnOtherEvents(t *testing.T) {
	r := lang.EventReaction{Event: "issue_comment.created", Action: lang.ReactInvalidateAndRestart, RestartFrom: "current"}
	p := pipeline(r)
	run := runAt(p, "lead", "aaaa")
	k := newKernel(config(p), "aaaa", run)
	Run(k, p, run, model.Input{Key: "c1", Event: r.Event, Actor: "mallory"})
	assert.Empty(t, k.moves, "mallory may only read")
	assert.True(t, k.logged("the event is by @mallory, whose permission is read; it needs write"))
	assert.Empty(t, run.Applied)

	Run(k, p, run, model.Input{Key: "c1", Event: r.Event, Actor: "dev"})
	assert.Equal(t, []string{"enter lead"}, k.movesOf(), "current: a new attempt of the stage it is at")
	assert.Equal(t, model.StageWaiting, run.Stages["lead"].Status, "the stage it restarts is not cancelled")
	Run(k, p, run, model.Input{Key: "c1", Event: r.Event, Actor: "dev"})
	assert.Len(t, k.moves, 1, "once per delivery")
	Run(k, p, run, model.Input{Key: "c2", Event: r.Event, Actor: "dev"})
	assert.Len(t, k.moves, 2)

	k.world.Cfg.Settings.ChatOpsPermission = "admin"
	Run(k, p, run, model.Input{Key: "c3", Event: r.Event, Actor: "dev"})
	assert.Len(t, k.moves, 2, "the permission the settings name")
}

// A reaction that restarts from a stage not in the pipeline fails the run.
func TestRestartFromAMissingStage(t *testing.T) {
	r := onPush
	r.RestartFrom = "gone"
	p := pipeline(r)
	run := runAt(p, "lead", "aaaa")
	k := newKernel(config(p), "bbbb", run)
	Run(k, p, run, model.Input{Key: "d1", Event: eventPush})
	assert.Equal(t, []string{"finish failed fail"}, k.movesOf())
	assert.Contains(t, k.moves[0].why, `restarts from stage "gone", which is not in pipeline "review"`)
}

// An escalated run is not restarted: its stages are stale, and the restart is owed until a
// person lets it go on.
func TestRestartDeferredWhileEscalated(t *testing.T) {
	p := pipeline(onPush)
	run := runAt(p, "lead", "aaaa")
	assert.False(t, RestartDeferred(newKernel(config(p), "aaaa", run), p, run, "unblocked by @dev"), "nothing deferred")

	run.Status, run.Message = model.RunEscalated, "waits for a maintainer"
	k := newKernel(config(p), "bbbb", run)
	Run(k, p, run, model.Input{Key: "d1", Event: eventPush})
	assert.Equal(t, []string{"record"}, k.movesOf())
	assert.Contains(t, k.moves[0].why, "not restarted: the run is escalated")
	assert.Equal(t, model.StageStale, run.Stages["review"].Status)
	assert.Equal(t, model.StageWaiting, run.Stages["lead"].Status)

	require.True(t, RestartDeferred(k, p, run, "unblocked by @dev"))
	assert.Equal(t, []string{"record", "enter review"}, k.movesOf())
	assert.Equal(t, "unblocked by @dev; restarting from review: on_events made results stale while the run was escalated", k.moves[1].why)
	assert.Equal(t, model.RunRunning, run.Status)
	assert.Empty(t, run.Message)
	assert.Equal(t, model.StageCancelled, run.Stages["lead"].Status)
}

// A push whose event was lost is reacted to on the next event that finds the pull request
// at a head the run saw after another, with the key the push's event would have had.
func TestLevelReactsToALostPush(t *testing.T) {
	p := pipeline(onPush)
	run := runAt(p, "lead", "bbbb")
	run.HeadSince = t0.Add(-time.Minute)
	k := newKernel(config(p), "bbbb", run)
	Level(k, model.Input{Key: "l1", Event: "pull_request.labeled"})
	assert.Equal(t, []string{"enter review"}, k.movesOf())
	assert.Contains(t, k.moves[0].why, "pull_request.synchronize (head bbbb, whose event was not seen; on pull_request.labeled)")

	Level(k, model.Input{Key: "l2", Event: "pull_request.labeled"})
	Run(k, p, run, model.Input{Key: "d1", Event: eventPush})
	assert.Len(t, k.moves, 1, "the push's event, late, does nothing more")

	for name, change := range map[string]func(*fakeKernel, *model.Run){
		"the head it started on": func(_ *fakeKernel, r *model.Run) { r.HeadSince = time.Time{} },
		"an issue's run":         func(k *fakeKernel, _ *model.Run) { k.world.Issue = true },
		"a closed pull request":  func(k *fakeKernel, _ *model.Run) { k.world.Facts.PR.State = model.PRClosed },
		"a final run":            func(_ *fakeKernel, r *model.Run) { r.Status = model.RunCompleted },
	} {
		run := runAt(p, "lead", "bbbb")
		run.HeadSince = t0.Add(-time.Minute)
		k := newKernel(config(p), "bbbb", run)
		change(k, run)
		Level(k, model.Input{Key: "l1", Event: "pull_request.labeled"})
		assert.Empty(t, k.moves, name)
	}
	// The push's own event is the push's reaction (Run), not the re-check of a lost one.
	run = runAt(p, "lead", "bbbb")
	run.HeadSince = t0.Add(-time.Minute)
	k = newKernel(config(p), "bbbb", run)
	Level(k, model.Input{Key: "p1", Event: eventPush})
	assert.Empty(t, k.moves, "the push's own event")
}

// A sub-pipeline's run starts with its parent's head and the time the parent saw it: that
// head is not a push for it; a head it sees after it started is.
func TestLevelPushSinceStartOfASubPipelineRun(t *testing.T) {
	facts := &model.Facts{PR: &model.PullRequest{HeadSHA: "bbbbbbbbbb"}}
	child := &model.Run{Parent: "parent/7/1/sub", Head: "bbbbbbbbbb", HeadSince: t0, StartedAt: t0}
	assert.False(t, pushedSinceStart(facts, child), "the parent's head, seen when the child started")
	child.StartedAt = t0.Add(time.Hour)
	assert.False(t, pushedSinceStart(facts, child), "the parent's head, seen before the child started")
	child.HeadSince = t0.Add(2 * time.Hour)
	assert.True(t, pushedSinceStart(facts, child), "a head the child saw after it started")
	own := &model.Run{Head: "bbbbbbbbbb", HeadSince: t0, StartedAt: t0}
	assert.True(t, pushedSinceStart(facts, own), "a pull request's run saw it after another")
	own.HeadSince = time.Time{}
	assert.False(t, pushedSinceStart(facts, own), "the one head it has seen")
}

// A notification is asked for once per delivery, write-ahead.
func TestNotifyOncePerDelivery(t *testing.T) {
	r := lang.EventReaction{Event: "pull_request.labeled", Action: lang.ReactNotify, Notify: &lang.Notify{Target: template(t, "@dev")}}
	p := pipeline(r)
	run := runAt(p, "lead", "aaaa")
	k := newKernel(config(p), "aaaa", run)
	k.plan = model.Effect{Kind: model.EffectComment, Body: "@dev look"}
	Run(k, p, run, model.Input{Key: "n1", Event: r.Event})
	require.Len(t, k.emits, 1)
	eff := k.emits[0]
	assert.True(t, eff.WriteAhead)
	assert.Equal(t, model.EffectComment, eff.Kind)
	assert.Equal(t, []string{eff.Key}, run.Applied)
	assert.Regexp(t, `^review/7/1/on_events/[0-9a-f]{12}/notify$`, eff.Key)
	assert.Same(t, r.Notify.Target, k.notified)

	Run(k, p, run, model.Input{Key: "n1", Event: r.Event})
	assert.Len(t, k.emits, 1, "the same delivery")
	k.world.Facts.PR.Posted = []string{"review/7/1/on_events/x/notify"}
	Run(k, p, run, model.Input{Key: "n2", Event: r.Event})
	assert.Len(t, k.emits, 2, "another delivery")

	k.planErr = "no such group"
	Run(k, p, run, model.Input{Key: "n3", Event: r.Event})
	assert.Len(t, k.emits, 2)
	assert.Len(t, run.Applied, 2, "what was not asked for is not recorded")
	assert.True(t, k.logged("notify at"))
	assert.True(t, k.logged(": no such group"))
}

// wake_agent dispatches the agent of the stage the run is at with the event in its context,
// once per delivery, for people with the chat-ops permission and never for an app.
func TestWakeAgent(t *testing.T) {
	r := lang.EventReaction{Event: "issue_comment.created", Action: lang.ReactWakeAgent, Message: template(t, "look again")}
	p := pipeline(r)
	run := runAt(p, "build", "aaaa")
	k := newKernel(config(p), "aaaa", run)
	k.world.Facts.Agents = []string{"coder-app"}
	k.dispatch = model.Effect{Kind: model.EffectDispatch, Inputs: map[string]string{"context": `{"pr":7}`, "action": "implement"}}
	for _, actor := range []string{"renovate[bot]", "pipeline-bot[bot]", "coder-app", "mallory"} {
		Run(k, p, run, model.Input{Key: "w1", Event: r.Event, Actor: actor})
		assert.Empty(t, k.emits, actor)
	}
	assert.Empty(t, run.Applied)

	Run(k, p, run, model.Input{Key: "w1", Event: r.Event, Actor: "dev"})
	require.Len(t, k.emits, 1)
	eff := k.emits[0]
	assert.Equal(t, "coder", eff.Agent)
	assert.True(t, eff.WriteAhead)
	assert.Equal(t, model.WakeAction, eff.Inputs["action"])
	var ctx map[string]any
	require.NoError(t, json.Unmarshal([]byte(eff.Inputs["context"]), &ctx))
	assert.Equal(t, 7.0, ctx["pr"], "the stage's context is kept")
	assert.Equal(t, map[string]any{"name": r.Event, "delivery": "w1", "actor": "dev", "head_sha": "aaaa", "message": "look again"}, ctx["event"])
	assert.Equal(t, []string{eff.Key}, run.Applied)
	assert.Equal(t, []string{"record"}, k.movesOf())
	assert.Equal(t, "agent coder woken on issue_comment.created (delivery)", k.moves[0].why)

	Run(k, p, run, model.Input{Key: "w1", Event: r.Event, Actor: "dev"})
	assert.Len(t, k.emits, 1, "once per delivery")

	k.dispatchErr = errors.New("no workflow")
	Run(k, p, run, model.Input{Key: "w2", Event: r.Event, Actor: "dev"})
	assert.Len(t, k.emits, 1)
	assert.Len(t, run.Applied, 1)
	assert.True(t, k.logged(`dispatching agent "coder": no workflow; nothing dispatched`))
}

// A comment agent is woken with the message before its body; a stage that is no agent's,
// with a reaction naming none, wakes no one.
func TestWakeAgentByComment(t *testing.T) {
	r := lang.EventReaction{Event: "issue_comment.created", Action: lang.ReactWakeAgent, Message: template(t, "look again")}
	p := pipeline(r)
	run := runAt(p, "review", "aaaa")
	k := newKernel(config(p), "aaaa", run)
	k.dispatch = model.Effect{Kind: model.EffectDispatch, Body: "@reviewer look"}
	Run(k, p, run, model.Input{Key: "w1", Event: r.Event, Actor: "dev"})
	require.Len(t, k.emits, 1)
	assert.Equal(t, "look again\n\n@reviewer look", k.emits[0].Body)

	run = runAt(p, "lead", "aaaa")
	k = newKernel(config(p), "aaaa", run)
	Run(k, p, run, model.Input{Key: "w1", Event: r.Event, Actor: "dev"})
	assert.Empty(t, k.emits)
	assert.True(t, k.logged("which is not an agent stage, and the reaction names no agent"))
}

// The notification of an agent whose outcome stayed unknown is taken as sent, unless
// GitHub can tell it was not (a comment by its marker, a workflow by its runs).
func TestNotifyAgentUnknown(t *testing.T) {
	notifyStage := func(target string) *lang.Stage {
		return &lang.Stage{ID: "tell", Type: lang.StageAction, Action: lang.ActionNotify, OnSuccess: "lead",
			Config: lang.ActionConfig{Target: template(t, target)}}
	}
	p := pipeline()
	run := runAt(p, "lead", "aaaa")
	it := model.Intent{Key: "review/7/1/tell/1/notify", Kind: model.EffectDispatch, At: t0}
	run.Intents = []model.Intent{it}

	k := newKernel(config(p), "aaaa", run)
	assert.False(t, NotifyAgentUnknown(k, run, notifyStage("@reviewer"), it), "a comment is known from its marker")
	k.world.Facts.Dispatches = map[string]model.DispatchTrace{it.Key: {}}
	assert.False(t, NotifyAgentUnknown(k, run, notifyStage("coder"), it), "the workflow's runs show it not sent")
	assert.Empty(t, k.moves)
	assert.Len(t, run.Intents, 1)

	k.world.Facts.Dispatches = map[string]model.DispatchTrace{it.Key: {Unsure: true}}
	assert.False(t, NotifyAgentUnknown(k, run, notifyStage("@reviewer"), it), "a comment is known from its marker")
	require.True(t, NotifyAgentUnknown(k, run, notifyStage("relay"), it), "a repository_dispatch leaves nothing to read")
	assert.Equal(t, []string{"leave tell succeeded lead"}, k.movesOf())
	assert.Contains(t, k.moves[0].why, "whether the notification of agent relay asked for at 2026-03-01 12:00 UTC reached GitHub is not known")
	assert.Empty(t, run.Intents)
	assert.Equal(t, []string{it.Key}, run.Applied)
}
