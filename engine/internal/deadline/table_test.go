package deadline

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

var t0 = time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)

// fake is a Kernel over plain values that records what the table asked of it.
type fake struct {
	now     time.Time
	stage   *lang.Stage
	pr      model.PullRequest
	own     map[string]bool // kinds the stage type handles; true: the run moves
	ownArm  []model.Deadline
	calls   []string
	effects []model.Effect
	logs    []string
}

func (f *fake) Now() time.Time { return f.now }
func (f *fake) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fake) Stage(*model.Run) *lang.Stage { return f.stage }
func (f *fake) Own(_ *lang.Stage, sr *model.StageRun) {
	sr.Deadlines = append(sr.Deadlines, f.ownArm...)
}
func (f *fake) OwnDue(_ *model.Run, _ *lang.Stage, d model.Deadline) (bool, bool) {
	moves, ok := f.own[d.Kind]
	if ok {
		f.calls = append(f.calls, "own "+d.Kind)
	}
	return moves, ok
}
func (f *fake) Leave(run *model.Run, _ *lang.Stage, status model.StageStatus, target, why string) {
	f.calls = append(f.calls, fmt.Sprintf("leave %s %s", status, target))
	run.Stage = target
}
func (f *fake) Finish(run *model.Run, status model.RunStatus, to, why string) {
	f.calls = append(f.calls, fmt.Sprintf("finish %s %s: %s", status, to, why))
	run.Status = status
}
func (f *fake) Cancel(run *model.Run, why string) {
	f.calls = append(f.calls, "cancel")
	run.Status = model.RunCancelled
}
func (f *fake) Escalate(run *model.Run, why string) {
	f.calls = append(f.calls, "escalate: "+why)
	run.Status = model.RunEscalated
}
func (f *fake) AgentError(*model.Run, *lang.Stage, string) bool {
	f.calls = append(f.calls, "agent error")
	return true
}
func (f *fake) FollowDue(*model.Run, *lang.Stage, model.Deadline) bool {
	f.calls = append(f.calls, "follow")
	return false
}
func (f *fake) PR() *model.PullRequest { return &f.pr }
func (f *fake) Emit(eff model.Effect)  { f.effects = append(f.effects, eff) }
func (f *fake) Notify(_ *model.Run, eff model.Effect, _, _ *lang.Template) (model.Effect, string, string) {
	eff.Kind, eff.Body = model.EffectComment, "notified"
	return eff, "", ""
}

func runAt(stage string, ds ...model.Deadline) *model.Run {
	return &model.Run{ID: "p/1/1", Pipeline: "p", Stage: stage, Status: model.RunRunning, Stages: map[string]*model.StageRun{
		"a": {Attempt: 1, Deadlines: []model.Deadline{{Kind: model.DeadlineTimeout, At: t0}}},
		"b": {Attempt: 1, Deadlines: ds},
	}}
}

func TestArmSetsTheEnteredStagesDeadlinesAndDropsTheOthers(t *testing.T) {
	f := &fake{now: t0, stage: &lang.Stage{ID: "b", Timeout: time.Hour}, ownArm: []model.Deadline{{Kind: model.DeadlineReminder, At: t0.Add(time.Minute)}}}
	run := runAt("b", model.Deadline{Kind: model.DeadlineRetry, At: t0})
	var tab Table
	tab.Arm(f, run, "a")
	assert.Nil(t, run.Stages["a"].Deadlines, "the stage left holds none")
	assert.Equal(t, []model.Deadline{
		{Kind: model.DeadlineTimeout, At: t0.Add(time.Hour)},
		{Kind: model.DeadlineReminder, At: t0.Add(time.Minute)},
	}, run.Stages["b"].Deadlines, "the timeout, then the type's own; the old ones are gone")

	f.stage = nil // the pipeline left the config
	tab.Arm(f, run, "a")
	assert.Nil(t, run.Stages["b"].Deadlines)
}

func TestDueActsOnEachDueDeadlineOnceOldestFirst(t *testing.T) {
	f := &fake{now: t0, stage: &lang.Stage{ID: "b"}, own: map[string]bool{model.DeadlineReminder: false, model.DeadlinePoll: false}}
	later := model.Deadline{Kind: model.DeadlineDelay, At: t0.Add(time.Hour)}
	run := runAt("b", later,
		model.Deadline{Kind: model.DeadlinePoll, At: t0},
		model.Deadline{Kind: model.DeadlineReminder, At: t0.Add(-time.Minute)})
	var tab Table
	moved, stop := tab.Due(f, run, f.stage)
	assert.False(t, moved)
	assert.False(t, stop)
	assert.Equal(t, []string{"own reminder", "own poll"}, f.calls)
	assert.Equal(t, []model.Deadline{later}, run.Stages["b"].Deadlines, "what is not due stays")

	f.calls = nil
	moved, stop = tab.Due(f, run, f.stage)
	assert.False(t, stop || moved)
	assert.Empty(t, f.calls, "each is acted on once")
}

func TestDueFailsTheRunOnAKindNobodyHandles(t *testing.T) {
	f := &fake{now: t0, stage: &lang.Stage{ID: "b"}}
	run := runAt("b", model.Deadline{Kind: "bogus", At: t0})
	var tab Table
	moved, stop := tab.Due(f, run, f.stage)
	assert.False(t, moved)
	assert.True(t, stop)
	assert.Equal(t, []string{"finish failed fail: not supported yet: deadline bogus of stage b"}, f.calls)
}

func TestTimeoutExtendsThenGoesToItsTarget(t *testing.T) {
	stage := &lang.Stage{ID: "b", OnTimeout: &lang.Rule{Then: lang.ThenExtend, Extend: time.Hour, MaxExtensions: 1, Labels: []string{"Stale", "stale"}}}
	f := &fake{now: t0, stage: stage, pr: model.PullRequest{Number: 7}}
	run := runAt("b", model.Deadline{Kind: model.DeadlineTimeout, At: t0})
	var tab Table
	moved, stop := tab.Due(f, run, stage)
	assert.False(t, moved || stop, "an extension does not move the run")
	require.Equal(t, []model.Deadline{{Kind: model.DeadlineTimeout, At: t0.Add(time.Hour), N: 1}}, run.Stages["b"].Deadlines)
	require.Len(t, f.effects, 1)
	assert.Equal(t, model.Effect{Key: "p/1/1/b/1/on_timeout/1/add_label", Run: "p/1/1", Stage: "b", Kind: model.EffectAddLabel, Number: 7,
		Labels: []string{"Stale"}}, f.effects[0], "a label once, as GitHub compares names")

	f.now = t0.Add(time.Hour)
	moved, stop = tab.Due(f, run, stage)
	assert.True(t, moved)
	assert.True(t, stop)
	assert.Equal(t, []string{"leave failed fail"}, f.calls, "extended the most it may: it fails")
	assert.Contains(t, run.Stages["b"].Message, "extended 1 time, the most on_timeout allows")
}

func TestTimeoutEscalatesCancelsOrRetriesTheAgent(t *testing.T) {
	for _, tt := range []struct {
		stage *lang.Stage
		want  string
		moved bool
	}{
		{&lang.Stage{ID: "b", OnTimeout: &lang.Rule{Then: lang.TargetEscalate}}, "escalate: stage \"b\" timed out at 2026-01-02 10:00 UTC", false},
		{&lang.Stage{ID: "b", OnTimeout: &lang.Rule{Then: lang.TargetCancel}}, "cancel", false},
		{&lang.Stage{ID: "b", Type: lang.StageAgent, OnError: &lang.ErrorPolicy{}}, "agent error", true},
	} {
		f := &fake{now: t0, stage: tt.stage}
		run := runAt("b", model.Deadline{Kind: model.DeadlineTimeout, At: t0})
		var tab Table
		moved, stop := tab.Due(f, run, tt.stage)
		assert.True(t, stop)
		assert.Equal(t, tt.moved, moved)
		assert.Equal(t, []string{tt.want}, f.calls)
	}
}

func TestTimeoutNotifiesWriteAhead(t *testing.T) {
	stage := &lang.Stage{ID: "b", OnTimeout: &lang.Rule{Notify: &lang.Notify{}}}
	f := &fake{now: t0, stage: stage, pr: model.PullRequest{Number: 7}}
	run := runAt("b", model.Deadline{Kind: model.DeadlineTimeout, At: t0})
	var tab Table
	tab.Due(f, run, stage)
	require.Len(t, f.effects, 1)
	assert.True(t, f.effects[0].WriteAhead)
	assert.Equal(t, "p/1/1/b/1/on_timeout/1/comment", f.effects[0].Key)
}

func TestMergeabilityPollsThenEscalates(t *testing.T) {
	f := &fake{now: t0, stage: &lang.Stage{ID: "b"}}
	run := runAt("b")
	sr := run.Stages["b"]
	var tab Table
	for i := 0; i < MergeabilityPolls; i++ {
		require.Empty(t, tab.Poll(f.now, run, sr, "it"), "poll %d", i)
		require.Equal(t, []model.Deadline{{Kind: model.DeadlineMergeability, At: f.now.Add(MergeabilityInterval), N: i}}, sr.Deadlines)
		assert.Empty(t, tab.Poll(f.now, run, sr, "it"), "one poll armed at a time")
		assert.Len(t, sr.Deadlines, 1)
		f.now = f.now.Add(MergeabilityInterval)
		moved, stop := tab.Due(f, run, f.stage)
		require.False(t, moved || stop, "a poll only records that it is due")
	}
	assert.Contains(t, tab.Poll(f.now, run, sr, "it"), "after 12 checks over 1h")
}

func TestFollowAndRetryAndHTTPPoll(t *testing.T) {
	f := &fake{now: t0, stage: &lang.Stage{ID: "b"}}
	run := runAt("b", model.Deadline{Kind: model.DeadlineFollow, At: t0}, model.Deadline{Kind: model.DeadlineRetry, At: t0})
	var tab Table
	moved, stop := tab.Due(f, run, f.stage)
	assert.False(t, moved || stop)
	assert.Equal(t, []string{"follow"}, f.calls)
	assert.Nil(t, run.Stages["b"].Deadlines)
}

func TestSideOutcomeAndDrop(t *testing.T) {
	var logs []string
	logf := func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	assert.False(t, SideOutcome(model.Outcome{Key: "p/1/1/b/1/merge"}, logf))
	assert.True(t, SideOutcome(model.Outcome{Key: "p/1/1/b/1/on_timeout/1/comment", Err: "gone"}, logf))
	assert.Equal(t, []string{"p/1/1/b/1/on_timeout/1/comment: gone; it is not tried again"}, logs)

	run := runAt("b", model.Deadline{Kind: model.DeadlineDelay, At: t0})
	Drop(run, logf)
	assert.Nil(t, run.Stages["b"].Deadlines)
	assert.Len(t, logs, 2)
}
