package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// escalateConfig: a gate that escalates when it fails, then a human approval, then done.
func escalateConfig(t *testing.T) *lang.Config {
	cfg := humanConfig(t, 1)
	p := cfg.Pipelines[0]
	approval := p.Stages[0]
	approval.OnEnter, approval.Reminder, approval.AutoAssign = nil, nil, false
	approval.OnComplete = lang.TargetComplete
	gate := &lang.Stage{ID: "checks", Type: lang.StageGate, OnPass: "approval", OnFail: lang.TargetEscalate, Conditions: []lang.Condition{{
		Check: "ok", Eval: checkFunc(func(f *model.Facts) model.GateResult {
			if f.PR.HasLabel("broken") {
				return model.GateResult{Status: model.GateFail, Message: "broken"}
			}
			return model.GateResult{Status: model.GatePass, Message: "fine"}
		})}}}
	p.Stages = []*lang.Stage{gate, approval}
	return cfg
}

func command(id int64, user, body string) model.IssueComment {
	return model.IssueComment{ID: id, Author: user, Body: body, CreatedAt: t0.Add(time.Duration(id) * time.Minute)}
}

func TestEscalateAndCommands(t *testing.T) {
	cfg := escalateConfig(t)
	f := humanFacts()
	f.PR.Labels = []string{"broken"}
	f.People.Permissions = map[string]string{"alice": "write", "rita": "read", "bob": "maintain"}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	run := res.State.Runs[0]
	require.Equal(t, model.RunEscalated, run.Status)
	assert.False(t, run.Status.Final())
	assert.Equal(t, "checks", run.Stage)
	assert.Equal(t, lang.TargetEscalate, run.History[len(run.History)-1].To)

	// An escalated run does not move on its own, even when the facts change.
	f.PR.Labels = nil
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.unlabeled"}, f, t0.Add(time.Minute))
	assert.Equal(t, model.RunEscalated, res.State.Runs[0].Status)

	// A read user's command is refused with a one-line reply, and nothing moves.
	f.PR.Comments = []model.IssueComment{command(1, "rita", "/pipeline unblock")}
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "issue_comment.created"}, f, t0.Add(2*time.Minute))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "chatops/1", res.Effects[0].Key)
	assert.Equal(t, "@rita `/pipeline unblock` refused: it needs write permission on this repository, and @rita's is read. Nothing was changed.", res.Effects[0].Body)
	assert.True(t, res.Effects[0].WriteAhead)
	assert.Equal(t, model.RunEscalated, res.State.Runs[0].Status)
	assert.Equal(t, int64(1), res.State.CommandsSeen)
	// Seen once: the same comment read again is not acted on again.
	again := Step(cfg, res.State, model.Input{Key: "k4", Event: "status"}, f, t0.Add(3*time.Minute))
	assert.Empty(t, again.Effects)

	// alice unblocks: the gate is evaluated again, passes, and the run waits for approval.
	f.PR.Comments = append(f.PR.Comments, command(2, "alice", "/pipeline unblock"))
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "issue_comment.created"}, f, t0.Add(4*time.Minute))
	run = res.State.Runs[0]
	assert.Equal(t, "approval", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status)
	assert.Equal(t, "alice", run.History[len(run.History)-2].Actor)

	// bob (a team member) approves by command: the approval counts.
	f.PR.Comments = append(f.PR.Comments, command(3, "bob", "/pipeline approve"))
	res = Step(cfg, res.State, model.Input{Key: "k6", Event: "issue_comment.created"}, f, t0.Add(5*time.Minute))
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	assert.Equal(t, "approved by bob", res.State.Runs[0].History[len(res.State.Runs[0].History)-1].Why)
}

func TestCommandsEach(t *testing.T) {
	cfg := escalateConfig(t)
	base := func() (*model.Facts, *model.State) {
		f := humanFacts()
		f.People.Permissions = map[string]string{"alice": "admin", "dev": "write", "carol": "write"}
		res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
		require.Equal(t, "approval", res.State.Runs[0].Stage)
		return f, res.State
	}
	run := func(body, user string) model.Result {
		f, st := base()
		f.PR.Comments = []model.IssueComment{command(1, user, body)}
		return Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	}
	r := run("/pipeline retry", "alice").State.Runs[0]
	assert.Equal(t, 2, r.Stages["approval"].Attempt)
	r = run("/pipeline skip", "alice").State.Runs[0]
	assert.Equal(t, model.RunCompleted, r.Status)
	assert.Equal(t, model.StageSkipped, r.Stages["approval"].Status)
	r = run("/pipeline cancel", "alice").State.Runs[0]
	assert.Equal(t, model.RunCancelled, r.Status)
	r = run("/pipeline restart", "alice").State.Runs[0]
	assert.Equal(t, 2, r.Stages["checks"].Attempt)
	res := run("/pipeline restart nowhere", "alice")
	assert.Equal(t, "approval", res.State.Runs[0].Stage)
	assert.Contains(t, res.Effects[0].Body, "has no stage nowhere")
	res = run("/pipeline unblock", "alice")
	assert.Contains(t, res.Effects[0].Body, "is not escalated")
	res = run("/pipeline status", "alice")
	assert.Equal(t, "@alice Run review/7/1 is waiting at approval: wait_for approval waits for 1 approval on the current head; has 0.", res.Effects[0].Body)
	res = run("/pipeline frobnicate <script>", "alice")
	assert.Contains(t, res.Effects[0].Body, "`/pipeline frobnicate` is not a command")
	// The author may use commands (with write), but their approval never counts.
	res = run("/pipeline approve", "dev")
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	assert.Contains(t, res.Effects[0].Body, "@dev's approval does not count")
	// The author may not move their own runs past a stage.
	for _, body := range []string{"/pipeline skip", "/pipeline unblock approval", "/pipeline restart approval"} {
		res = run(body, "dev")
		assert.Equal(t, "approval", res.State.Runs[0].Stage, body)
		assert.Equal(t, 1, res.State.Runs[0].Stages["approval"].Attempt, body)
		assert.Contains(t, res.Effects[0].Body, "an author of a pull request cannot", body)
	}
	assert.Equal(t, 2, run("/pipeline retry", "dev").State.Runs[0].Stages["approval"].Attempt)
	// carol has write but is not in the group.
	res = run("/pipeline approve", "carol")
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	// An app is refused.
	f, st := base()
	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "helper[bot]", IsBot: true, Body: "/pipeline skip", CreatedAt: t0.Add(time.Hour)}}
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Equal(t, "approval", res.State.Runs[0].Stage)
	assert.Contains(t, res.Effects[0].Body, "not apps")
	// A command written before the run started is not acted on.
	f, st = base()
	f.PR.Comments = []model.IssueComment{{ID: 1, Author: "alice", Body: "/pipeline skip", CreatedAt: t0.Add(-time.Hour)}}
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Equal(t, "approval", res.State.Runs[0].Stage)
	assert.Empty(t, res.Effects)
	// chatops.from: alice is not in ops.
	cfg.Settings.ChatOpsFrom = []string{"ops"}
	cfg.Groups = append(cfg.Groups, &lang.Group{Name: "ops", Users: []string{"carol"}})
	res = run("/pipeline skip", "alice")
	assert.Equal(t, "approval", res.State.Runs[0].Stage)
	assert.Contains(t, res.Effects[0].Body, "only members of ops may use commands")
	assert.Equal(t, model.RunCompleted, run("/pipeline skip", "carol").State.Runs[0].Status)
	// chatops.permission: maintain.
	cfg.Settings.ChatOpsPermission = "maintain"
	res = run("/pipeline skip", "carol")
	assert.Contains(t, res.Effects[0].Body, "it needs maintain permission")
}

func TestParseCommand(t *testing.T) {
	for body, want := range map[string][2]string{
		"/pipeline retry":              {"retry", ""},
		"  /pipeline Restart build\nx": {"restart", "build"},
		"/pipeline":                    {"", ""},
	} {
		v, a, ok := model.ParseCommand(body)
		assert.True(t, ok, body)
		assert.Equal(t, want, [2]string{v, a}, body)
	}
	for _, body := range []string{"please /pipeline retry", "/pipelines retry", "", "> /pipeline retry"} {
		_, _, ok := model.ParseCommand(body)
		assert.False(t, ok, body)
	}
}

func TestEscalateRunsOnError(t *testing.T) {
	cfg := escalateConfig(t)
	cfg.Pipelines[0].OnError = []lang.ActionItem{{Action: lang.ActionLabel, Args: lang.Value{Kind: lang.KindString, Scalar: "needs-human"}}}
	f := humanFacts()
	f.PR.Labels = []string{"broken"}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, model.RunEscalated, res.State.Runs[0].Status)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "review/7/1/on_error/1/label", res.Effects[0].Key)
	assert.Equal(t, []string{"needs-human"}, res.Effects[0].Labels)
	// Settled, and at the next event, nothing more is asked for.
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key}}, f, t0)
	assert.Empty(t, res.Effects)
	f.PR.Labels = append(f.PR.Labels, "needs-human")
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(time.Minute))
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunEscalated, res.State.Runs[0].Status)
}

func TestUnblockKeepsTheAttempt(t *testing.T) {
	cfg := escalateConfig(t)
	f := humanFacts()
	f.People.Permissions = map[string]string{"alice": "write", "bob": "write"}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	st := res.State
	run := st.Runs[0]
	require.Equal(t, "approval", run.Stage)
	e := newEval(cfg, st, f, t0, model.Input{})
	e.escalate(e.St.Runs[0], "nobody answered")
	st = e.St
	f.PR.Comments = []model.IssueComment{command(1, "bob", "/pipeline approve")}
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Minute))
	require.Equal(t, model.RunEscalated, res.State.Runs[0].Status, "approved, but escalated")
	assert.Contains(t, res.Effects[0].Body, "approval recorded")
	f.PR.Comments = append(f.PR.Comments, command(2, "alice", "/pipeline unblock"))
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "issue_comment.created"}, f, t0.Add(2*time.Minute))
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	assert.Equal(t, 1, res.State.Runs[0].Stages["approval"].Attempt)
}
