package chatops

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
)

// Each verb asks the kernel for its move, by the commenter, or replies why not.
func TestEachVerbMoves(t *testing.T) {
	held := func(m Move) Move {
		m.Held = &model.Approval{Login: "alice", SHA: "aaaaaaaaaa", At: t0.Add(time.Minute), Comment: 1}
		return m
	}
	cases := []struct {
		body   string
		stage  string
		status model.RunStatus
		want   []Move // Why and Actor filled in by the test
		reply  string
	}{
		{"/pipeline approve", "approval", model.RunWaiting, []Move{held(Move{Kind: Approve})}, ""},
		{"/pipeline approve", "approval", model.RunEscalated, []Move{held(Move{Kind: Approve})}, "@alice Run review/7/1: approval recorded; the run is escalated, and goes on after `/pipeline unblock`."},
		{"/pipeline approve", "checks", model.RunWaiting, nil, "@alice Run review/7/1 is not at a human stage waiting for approval; nothing to approve."},
		{"/pipeline retry", "approval", model.RunWaiting, []Move{{Kind: Retry}}, ""},
		{"/pipeline retry", "gone", model.RunWaiting, nil, "@alice Run review/7/1: stage gone is not in the pipeline; use `/pipeline restart`."},
		{"/pipeline skip", "approval", model.RunWaiting, []Move{held(Move{Kind: Skip, To: "merge"})}, ""},
		{"/pipeline skip", "checks", model.RunEscalated, []Move{{Kind: Skip, To: "approval"}}, ""},
		{"/pipeline skip", "gone", model.RunWaiting, nil, "@alice Run review/7/1: stage gone is not in the pipeline; use `/pipeline restart`."},
		{"/pipeline cancel", "approval", model.RunWaiting, []Move{{Kind: Cancel}}, ""},
		{"/pipeline unblock", "checks", model.RunEscalated, []Move{{Kind: Unblock}}, ""},
		{"/pipeline unblock", "approval", model.RunWaiting, nil, "@alice Run review/7/1 is not escalated; nothing to unblock."},
		{"/pipeline unblock approval", "checks", model.RunEscalated, []Move{{Kind: Enter, To: "approval"}}, ""},
		{"/pipeline unblock nowhere", "checks", model.RunEscalated, nil, "@alice Run review/7/1: pipeline review has no stage nowhere; nothing was changed."},
		{"/pipeline restart", "approval", model.RunWaiting, []Move{{Kind: Restart, To: "checks"}}, ""},
		{"/pipeline restart approval", "approval", model.RunWaiting, []Move{{Kind: Restart, To: "approval"}}, ""},
		{"/pipeline restart <b>nowhere</b>", "approval", model.RunWaiting, nil, "@alice Run review/7/1: pipeline review has no stage bnowhereb; nothing was changed."},
		{"/pipeline status", "approval", model.RunWaiting, nil, "@alice Run review/7/1 is waiting at approval."},
		{"/pipeline STATUS", "checks", model.RunEscalated, nil, "@alice Run review/7/1 is escalated at checks: `*broken*`."},
	}
	for _, tc := range cases {
		t.Run(tc.body+" at "+tc.stage+" "+string(tc.status), func(t *testing.T) {
			k := kernel(tc.stage, tc.status)
			k.w.St.Runs[0].Message = "*broken*"
			k.say([3]string{"1", "alice", tc.body})
			Comments(k)
			var want []moved
			for _, m := range tc.want {
				verb, _, _ := model.ParseCommand(tc.body)
				m.Actor, m.Why = "alice", "/pipeline "+verb+" by alice"
				want = append(want, moved{"review/7/1", m})
			}
			assert.Equal(t, want, k.moves)
			if tc.reply == "" {
				assert.Empty(t, k.effects)
			} else {
				require.Len(t, k.effects, 1)
				assert.Equal(t, model.Effect{Key: "chatops/1", Kind: model.EffectComment, Number: 7, Body: tc.reply, WriteAhead: true}, k.effects[0])
			}
			assert.Equal(t, int64(1), k.w.St.CommandsSeen)
		})
	}
}

// Who may not command is answered why, and nothing moves: the permission read today, an
// app, the runs' author where a verb would move past a stage, a verb that is none.
func TestRefusals(t *testing.T) {
	cases := []struct {
		who, body string
		bot       bool
		reply     string // "" : acted on
	}{
		{"rita", "/pipeline retry", false, "@rita `/pipeline retry` refused: it needs write permission on this repository, and @rita's is read. Nothing was changed."},
		{"stranger", "/pipeline status", false, "@stranger `/pipeline status` refused: it needs write permission on this repository, and @stranger's is not known. Nothing was changed."},
		{"helper[bot]", "/pipeline skip", true, "@helper[bot] `/pipeline skip` refused: commands are taken from people, not apps. Nothing was changed."},
		{"alice", "/pipeline frobnicate <script>", false, "@alice `/pipeline frobnicate` is not a command; the commands are approve, retry, skip, cancel, unblock, restart, retest, status, start, enable, disable. Nothing was changed."},
		{"dev", "/pipeline skip", false, "@dev `/pipeline skip` refused: an author of a pull request cannot move its runs past a stage (status, retry, cancel and restart from the first stage are theirs to use). Nothing was changed."},
		{"dev", "/pipeline unblock", false, "@dev `/pipeline unblock` refused: an author of a pull request cannot move its runs past a stage (status, retry, cancel and restart from the first stage are theirs to use). Nothing was changed."},
		{"dev", "/pipeline restart approval", false, "@dev `/pipeline restart approval` refused: an author of a pull request cannot move its runs past a stage (status, retry, cancel and restart from the first stage are theirs to use). Nothing was changed."},
		{"DEV", "/pipeline disable deploy", false, "@DEV `/pipeline disable deploy` refused: an author of a pull request cannot move its runs past a stage (status, retry, cancel and restart from the first stage are theirs to use). Nothing was changed."},
		{"dev", "/pipeline retry", false, ""},
		{"dev", "/pipeline cancel", false, ""},
		{"dev", "/pipeline restart", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.who+" "+tc.body, func(t *testing.T) {
			k := kernel("checks", model.RunEscalated)
			k.w.Facts.People.Permissions["DEV"] = "write"
			k.w.Facts.PR.Comments = []model.IssueComment{{ID: 3, Author: tc.who, IsBot: tc.bot, Body: tc.body, CreatedAt: t0.Add(time.Minute)}}
			Comments(k)
			if tc.reply == "" {
				assert.Len(t, k.moves, 1)
				assert.Empty(t, k.effects)
				return
			}
			assert.Empty(t, k.moves)
			assert.Equal(t, []string{tc.reply}, k.replies())
			assert.Nil(t, k.w.St.Enabled, "nothing was changed")
			require.Len(t, k.w.St.Refused, 1)
			assert.Equal(t, tc.who, k.w.St.Refused[0].Login)
		})
	}
}

// chatops.from and chatops.permission are read from the config as written.
func TestChatOpsSettings(t *testing.T) {
	k := kernel("checks", model.RunEscalated)
	k.w.Cfg.Settings.ChatOpsFrom = []string{"maintainers"}
	k.w.Facts.People.Permissions["carol"] = "admin"
	k.say([3]string{"1", "carol", "/pipeline cancel"}, [3]string{"2", "bob", "/pipeline cancel"})
	Comments(k)
	assert.Equal(t, []string{"@carol `/pipeline cancel` refused: only members of maintainers may use commands. Nothing was changed."}, k.replies())
	require.Len(t, k.moves, 1)
	assert.Equal(t, "bob", k.moves[0].Actor)

	k = kernel("checks", model.RunEscalated)
	k.w.Cfg.Settings.ChatOpsPermission = "maintain"
	k.say([3]string{"1", "bob", "/pipeline cancel"})
	Comments(k)
	assert.Empty(t, k.moves)
	assert.Equal(t, []string{"@bob `/pipeline cancel` refused: it needs maintain permission on this repository, and @bob's is write. Nothing was changed."}, k.replies())
}

// A flood of refused commands costs one reply per person while the runs stand still;
// once the runs move, the next refusal is replied to again.
func TestOneRefusalReplyPerPerson(t *testing.T) {
	k := kernel("checks", model.RunEscalated)
	k.say([3]string{"1", "rita", "/pipeline unblock"}, [3]string{"2", "rita", "/pipeline skip"}, [3]string{"3", "RITA", "/pipeline nonsense"}, [3]string{"4", "eve", "/pipeline unblock"})
	Comments(k)
	assert.Equal(t, []string{"chatops/1", "chatops/4"}, keys(k.effects))
	assert.Equal(t, int64(4), k.w.St.CommandsSeen)
	assert.Len(t, k.logs, 5, "the three refusals replied to and the two that were not are logged")

	k.effects = nil
	k.say([3]string{"5", "rita", "/pipeline unblock"})
	Comments(k)
	assert.Empty(t, k.effects, "the runs stand where they did")

	k.w.St.Runs[0].Stages["checks"].Attempt = 2 // the runs move
	k.say([3]string{"6", "rita", "/pipeline unblock"}, [3]string{"7", "rita", "/pipeline unblock"})
	Comments(k)
	assert.Equal(t, []string{"chatops/6"}, keys(k.effects))
	require.Len(t, k.w.St.Refused, 2)
}

func TestRefusedIsBounded(t *testing.T) {
	k := kernel("checks", model.RunEscalated)
	for i := 1; i <= model.MaxRefused+3; i++ {
		k.w.Facts.PR.Comments = append(k.w.Facts.PR.Comments, model.IssueComment{ID: int64(i), Author: "user" + string(rune('a'+i)), Body: "/pipeline skip"})
	}
	Comments(k)
	assert.Len(t, k.effects, model.MaxRefused+3)
	require.Len(t, k.w.St.Refused, model.MaxRefused)
	assert.Equal(t, "user"+string(rune('a'+model.MaxRefused+3)), k.w.St.Refused[model.MaxRefused-1].Login)
}

func keys(effs []model.Effect) []string {
	var out []string
	for _, e := range effs {
		out = append(out, e.Key)
	}
	return out
}
