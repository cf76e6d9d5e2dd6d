package chatops

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
)

// Which comments are acted on at all: once each, oldest first, never the action's own,
// an edited one, one older than the runs, or one on a pull request that is done.
func TestWhichCommentsAct(t *testing.T) {
	cases := []struct {
		name  string
		setup func(k *fakeKernel)
		moves int
		seen  int64
	}{
		{"a command", func(k *fakeKernel) {}, 1, 2},
		{"seen already", func(k *fakeKernel) { k.w.St.CommandsSeen = 2 }, 0, 2},
		{"not a command", func(k *fakeKernel) { k.w.Facts.PR.Comments[0].Body = "please /pipeline cancel" }, 0, 0},
		{"the action's own", func(k *fakeKernel) { k.w.Facts.PR.Comments[0].Viewer = true }, 0, 0},
		{"by the action's login", func(k *fakeKernel) { k.w.Facts.PR.Comments[0].Author = "pipeline-bot[bot]" }, 0, 0},
		{"older than the runs", func(k *fakeKernel) { k.w.St.Runs[0].StartedAt = t0.Add(time.Hour) }, 0, 2},
		{"no open run", func(k *fakeKernel) { k.w.St.Runs[0].Status = model.RunCompleted }, 0, 0},
		{"on a closed pull request", func(k *fakeKernel) { k.w.Facts.PR.State = model.PRClosed }, 0, 2},
		{"on a merged pull request", func(k *fakeKernel) { k.w.Facts.PR.State = model.PRMerged }, 0, 2},
		{"on a closed issue", func(k *fakeKernel) { k.w.Facts.PR.State = model.PRClosed; k.w.Issue = true }, 1, 2},
		{"passed over: a child run acts", func(k *fakeKernel) { k.passes = map[string]bool{"review/7/1": true} }, 0, 2},
		{"its pipeline is gone", func(k *fakeKernel) { k.w.St.Runs[0].Pipeline = "gone" }, 0, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := kernel("checks", model.RunEscalated)
			k.say([3]string{"2", "alice", "/pipeline cancel"})
			tc.setup(k)
			Comments(k)
			assert.Len(t, k.moves, tc.moves)
			assert.Equal(t, tc.seen, k.w.St.CommandsSeen)
			if tc.moves == 0 && tc.name != "its pipeline is gone" {
				assert.Empty(t, k.effects, "nothing acts, a reply included")
			}
		})
	}
	k := kernel("checks", model.RunEscalated)
	k.w.St.Runs[0].Pipeline = "gone"
	k.say([3]string{"1", "alice", "/pipeline retry"})
	Comments(k)
	assert.Equal(t, []string{"@alice Run review/7/1: its pipeline is no longer in the config; left as it is."}, k.replies())
}

// A comment someone other than its author edited is not its author's word: kept as
// disowned, never acted on.
func TestDisowned(t *testing.T) {
	k := kernel("checks", model.RunEscalated)
	k.w.Facts.PR.Comments = []model.IssueComment{{ID: 5, Author: "alice", EditedBy: "mallory", Body: "/pipeline unblock", CreatedAt: t0.Add(time.Minute)}}
	Comments(k)
	assert.Empty(t, k.moves)
	assert.Empty(t, k.effects)
	assert.Equal(t, []model.DisownedComment{{ID: 5, Author: "alice", Editor: "mallory"}}, k.w.St.Disowned)
	assert.Equal(t, int64(5), k.w.St.CommandsSeen)
}

// Commands act on runs in the order written; each command on every open run it does
// not pass over.
func TestCommandsInOrderOnEveryRun(t *testing.T) {
	k := kernel("checks", model.RunEscalated)
	other := &model.Run{ID: "review/7/2", Pipeline: "review", Stage: "approval", Status: model.RunWaiting, StartedAt: t0, Stages: map[string]*model.StageRun{"approval": {}}}
	done := &model.Run{ID: "review/7/0", Pipeline: "review", Stage: "merge", Status: model.RunCompleted, StartedAt: t0}
	k.w.St.Runs = append(k.w.St.Runs, other, done)
	k.say([3]string{"9", "bob", "/pipeline cancel"}, [3]string{"3", "alice", "/pipeline retry"})
	Comments(k)
	require.Len(t, k.moves, 4)
	assert.Equal(t, []moved{
		{"review/7/1", Move{Kind: Retry, Why: "/pipeline retry by alice", Actor: "alice"}},
		{"review/7/2", Move{Kind: Retry, Why: "/pipeline retry by alice", Actor: "alice"}},
		{"review/7/1", Move{Kind: Cancel, Why: "/pipeline cancel by bob", Actor: "bob"}},
		{"review/7/2", Move{Kind: Cancel, Why: "/pipeline cancel by bob", Actor: "bob"}},
	}, k.moves)
}

// /pipeline start starts a pipeline by hand, without an open run, within a day of being
// written; it replies with the run, or why none.
func TestStart(t *testing.T) {
	cases := []struct {
		name, body string
		written    time.Duration // before now
		refusals   map[string]string
		noStart    string
		reply      string // "": no reply, nothing started
	}{
		{"starts", "/pipeline start review", time.Hour, nil, "", "@alice Started pipeline review: run review/7/2."},
		{"too old", "/pipeline start review", 25 * time.Hour, nil, "", ""},
		{"no name", "/pipeline start", time.Hour, nil, "", "@alice `/pipeline start`: name the pipeline: `/pipeline start <pipeline>`. Nothing was started."},
		{"refused", "/pipeline start review", time.Hour, map[string]string{"review": "run review/7/1 of pipeline review is still going"}, "", "@alice `/pipeline start`: run review/7/1 of pipeline review is still going. Nothing was started."},
		{"does not run", "/pipeline start review", time.Hour, nil, "its `if` is false", "@alice `/pipeline start`: pipeline review does not run here: ``its `if` is false``. Nothing was started."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := kernel("checks", model.RunCompleted) // no open run
			k.refusals, k.noStart = tc.refusals, tc.noStart
			k.w.Facts.PR.Comments = []model.IssueComment{{ID: 4, Author: "alice", Body: tc.body, CreatedAt: k.w.Now.Add(-tc.written)}}
			Comments(k)
			assert.Equal(t, int64(4), k.w.St.CommandsSeen)
			if tc.reply == "" {
				assert.Empty(t, k.effects)
				assert.Empty(t, k.started)
				return
			}
			assert.Equal(t, []string{tc.reply}, k.replies())
			if tc.name == "starts" || tc.noStart != "" {
				assert.Equal(t, []model.Input{{Key: "comment-4", Event: "issue_comment.created", Actor: "alice", CommentID: 4}}, k.started)
			} else {
				assert.Empty(t, k.started)
			}
		})
	}
}

// enable and disable set what the subject's state says of a pipeline.
func TestEnableDisable(t *testing.T) {
	k := kernel("checks", model.RunCompleted)
	k.say([3]string{"1", "alice", "/pipeline enable deploy"})
	Comments(k)
	assert.Equal(t, map[string]bool{"deploy": true}, k.w.St.Enabled)
	k.say([3]string{"2", "bob", "/pipeline disable deploy"}, [3]string{"3", "bob", "/pipeline enable nothing"})
	Comments(k)
	assert.Nil(t, k.w.St.Enabled)
	assert.Equal(t, []string{
		"@alice Pipeline deploy enabled: its trigger starts it on this subject.",
		"@bob Pipeline deploy disabled: its trigger starts nothing on this subject (a run already going goes on).",
		"@bob `/pipeline enable`: there is no pipeline nothing. Nothing was changed.",
	}, k.replies())
	assert.Empty(t, k.moves)
}

// A workflow_dispatch naming a pipeline starts it when the kernel finds it may.
func TestDispatch(t *testing.T) {
	k := kernel("checks", model.RunCompleted)
	Dispatch(k, model.Input{Key: "d1", Event: "push", Pipeline: "review", Actor: "alice"})
	Dispatch(k, model.Input{Key: "d2", Event: "workflow_dispatch", Actor: "alice"})
	assert.Empty(t, k.started, "not a dispatch naming a pipeline")
	Dispatch(k, model.Input{Key: "d3", Event: "workflow_dispatch", Pipeline: "<nothing>", Actor: "alice"})
	assert.Empty(t, k.started)
	assert.Equal(t, []string{"workflow_dispatch by alice: pipeline nothing not started: there is no pipeline <nothing>"}, k.logs)
	Dispatch(k, model.Input{Key: "d4", Event: "workflow_dispatch", Pipeline: "review", Actor: "alice", Number: 7})
	assert.Equal(t, []model.Input{{Key: "d4", Event: "workflow_dispatch", Actor: "alice"}}, k.started)
	assert.Empty(t, k.effects, "the job log says, no reply")
}

func TestSettled(t *testing.T) {
	var logs []string
	logf := func(format string, args ...any) { logs = append(logs, format) }
	assert.True(t, Settled(model.Outcome{Key: "chatops/3"}, logf))
	assert.Empty(t, logs)
	assert.True(t, Settled(model.Outcome{Key: "chatops/3", Err: "403"}, logf))
	assert.Len(t, logs, 1)
	assert.False(t, Settled(model.Outcome{Key: "review/7/1/merge", Err: "409"}, logf))
	assert.Len(t, logs, 1)
	assert.True(t, Settled(model.Outcome{Key: "retest/4/5000000002", Err: "403 Resource not accessible by integration"}, logf), "a retest's rerun")
	assert.Len(t, logs, 2)
}

// The table: which verbs act alone, which the runs' authors may not use, in help order.
func TestTable(t *testing.T) {
	assert.Equal(t, []string{"approve", "retry", "skip", "cancel", "unblock", "restart", "retest", "status", "start", "enable", "disable"}, verbs())
	for _, v := range verbs() {
		assert.Equal(t, v == "retest" || v == "start" || v == "enable" || v == "disable", ActsAlone(v), v)
	}
	assert.False(t, ActsAlone("nonsense"))
	bars := map[string][2]bool{} // verb → barred without, with an argument
	for _, c := range commands {
		bars[c.verb] = [2]bool{c.bypasses != nil && c.bypasses(""), c.bypasses != nil && c.bypasses("x")}
	}
	assert.Equal(t, map[string][2]bool{
		"approve": {}, "retry": {}, "skip": {true, true}, "cancel": {}, "unblock": {true, true},
		"restart": {false, true}, "retest": {}, "status": {}, "start": {}, "enable": {}, "disable": {true, true},
	}, bars)
}
