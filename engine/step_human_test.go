package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/internal/people"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func humanTemplate(t *testing.T, src string) *lang.Template {
	t.Helper()
	tpl, err := lang.CompileTemplate(src, lang.Pos{Line: 1, Col: 1})
	require.Nil(t, err)
	return tpl
}

// humanConfig: a human stage waiting for count approvals from maintainers (alice and
// team acme/maintainers), then a merge.
func humanConfig(t *testing.T, count int) *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1",
		Groups: []*lang.Group{{Name: "maintainers", Users: []string{"alice", "dev"}, Teams: []string{"acme/maintainers"}}},
		Pipelines: []*lang.Pipeline{{
			Name:    "review",
			Trigger: lang.Trigger{Event: "pull_request.opened"},
			Stages: []*lang.Stage{
				{ID: "approval", Type: lang.StageHuman, WaitFor: lang.WaitApproval, From: "maintainers", Count: count,
					OnEnter:  humanTemplate(t, "PR #{{ context.pr_number }} waits for review"),
					Reminder: &lang.Reminder{Interval: 24 * time.Hour, MaxReminders: 2}, AutoAssign: true,
					OnComplete: "merge"},
				{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete},
			},
		}}}
}

func humanFacts() *model.Facts {
	f := prFacts()
	f.Repo = "acme/widgets"
	f.PR.Author = "dev"
	f.Viewer = "pipeline-bot[bot]"
	f.TeamMembers = map[string][]string{"acme/maintainers": {"bob"}}
	f.People = model.People{Permissions: map[string]string{"alice": "write", "bob": "maintain", "carol": "write", "dev": "write", "mallory": "read"}}
	return f
}

// settleAll performs every effect of res successfully and settles them.
func settleAll(t *testing.T, cfg *lang.Config, res model.Result, f *model.Facts, now time.Time) model.Result {
	t.Helper()
	for i := 0; len(res.Effects) > 0; i++ {
		require.Less(t, i, 5, "effects never stop")
		var outs []model.Outcome
		for _, e := range res.Effects {
			outs = append(outs, model.Outcome{Key: e.Key})
			if e.Kind == model.EffectComment {
				f.PR.Posted = append(f.PR.Posted, e.Key)
			}
		}
		res = Settle(cfg, res.State, model.Input{}, outs, f, now)
	}
	return res
}

func effectKinds(effs []model.Effect) []string {
	var out []string
	for _, e := range effs {
		out = append(out, string(e.Kind)+" "+e.Key[strings.LastIndexByte(e.Key, '/')+1:])
	}
	return out
}

func TestHumanStageNotifiesOnceAndCountsTheGroup(t *testing.T) {
	cfg, f := humanConfig(t, 2), humanFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Equal(t, []string{"comment on_enter", "request_reviewers request_reviewers"}, effectKinds(res.Effects))
	assert.Equal(t, "PR #7 waits for review", res.Effects[0].Body)
	assert.True(t, res.Effects[0].WriteAhead)
	assert.Equal(t, []string{"alice"}, res.Effects[1].Reviewers, "the author is not asked")
	assert.Equal(t, []string{"maintainers"}, res.Effects[1].Teams)
	res = settleAll(t, cfg, res, f, t0)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunWaiting, run.Status)

	// An event later: nothing posted again. The author's, an outsider's and a bot's approvals do not count.
	f.PR.Reviews = []model.Review{
		{Author: "dev", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA, CanPush: true},
		{Author: "mallory", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA, CanPush: true},
		{Author: "alice", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA, CanPush: true},
	}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, f, t0.Add(time.Hour))
	assert.Empty(t, res.Effects)
	sr := res.State.Runs[0].Stages["approval"]
	assert.Equal(t, model.StageWaiting, sr.Status)
	assert.Contains(t, sr.Results[0].Message, "has 1 (alice)")
	assert.Contains(t, sr.Results[0].Who, "team acme/maintainers")
	assert.Contains(t, sr.Results[0].Who, "with an approving review or a /pipeline approve comment", "how to move it")
	assert.Equal(t, "PR #7 waits for review", sr.Results[1].Message)

	// bob, a member of the team, approves: two, the stage passes and the merge is asked for.
	f.PR.Reviews = append(f.PR.Reviews, model.Review{Author: "bob", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA, CanPush: true})
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request_review.submitted"}, f, t0.Add(2*time.Hour))
	assert.Equal(t, "merge", res.State.Runs[0].Stage)
	assert.Equal(t, model.StagePassed, res.State.Runs[0].Stages["approval"].Status)

	// Without the team's members read, bob does not count (fail closed).
	f2 := humanFacts()
	f2.TeamMembers = nil
	f2.PR.Reviews = f.PR.Reviews
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f2, t0)
	assert.Equal(t, "approval", res.State.Runs[0].Stage)
}

func TestHumanStageReminders(t *testing.T) {
	cfg, f := humanConfig(t, 1), humanFacts()
	cfg.Pipelines[0].Stages[0].AutoAssign = false
	res := settleAll(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)
	sr := res.State.Runs[0].Stages["approval"]
	assert.Equal(t, []model.Deadline{{Kind: model.DeadlineReminder, At: t0.Add(24 * time.Hour)}}, sr.Deadlines)
	assert.Equal(t, t0.Add(24*time.Hour), res.State.NextDeadline(), "the sweep finds it")

	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "status"}, f, t0.Add(23*time.Hour))
	assert.Empty(t, res.Effects, "not due yet")
	for i, at := range []time.Duration{25 * time.Hour, 50 * time.Hour} {
		res = Step(cfg, res.State, model.Input{Key: "r", Event: "status"}, f, t0.Add(at))
		require.Len(t, res.Effects, 1, "reminder %d", i+1)
		assert.True(t, strings.HasSuffix(res.Effects[0].Key, "/reminder-"+string(rune('1'+i))))
		assert.Contains(t, res.Effects[0].Body, "@alice @acme/maintainers Reminder: stage \"approval\" still waits for 1 approval")
		assert.NotContains(t, res.Effects[0].Body, "@dev", "the author is not mentioned")
		// The same event again while the comment is in flight asks for nothing.
		again := Step(cfg, res.State, model.Input{Key: "r", Event: "status"}, f, t0.Add(at))
		assert.Empty(t, again.Effects)
		res = settleAll(t, cfg, res, f, t0.Add(at))
	}
	sr = res.State.Runs[0].Stages["approval"]
	assert.Equal(t, 2, sr.Reminders)
	assert.Empty(t, sr.Deadlines, "max_reminders reached")
	res = Step(cfg, res.State, model.Input{Key: "k9", Event: "status"}, f, t0.Add(200*time.Hour))
	assert.Empty(t, res.Effects)
	assert.Contains(t, res.State.Runs[0].Stages["approval"].Results[2].Message, "2 of 2 sent")
}

func TestHumanStageCommentLabelDismiss(t *testing.T) {
	f := humanFacts()
	f.People.Permissions = map[string]string{"alice": "write", "rita": "read"}
	comment := &lang.Stage{ID: "h", Type: lang.StageHuman, WaitFor: lang.WaitComment, Pattern: "^LGTM", Count: 1, OnComplete: lang.TargetComplete}
	cfg := &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{comment}}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	f.PR.Comments = []model.IssueComment{
		{ID: 1, Author: "alice", Body: "LGTM", CreatedAt: t0.Add(-time.Minute)}, // before the stage
		{ID: 2, Author: "rita", Body: "LGTM", CreatedAt: t0.Add(time.Minute)},   // no write access
		{ID: 3, Author: "dev", Body: "LGTM", CreatedAt: t0.Add(time.Minute)},    // the author
		{ID: 4, Author: "alice", Body: "looks fine", CreatedAt: t0.Add(time.Minute)},
	}
	res2 := Step(cfg, res.State, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Equal(t, model.RunWaiting, res2.State.Runs[0].Status)
	f.PR.Comments = append(f.PR.Comments, model.IssueComment{ID: 5, Author: "alice", Body: "LGTM!", CreatedAt: t0.Add(2 * time.Minute)})
	res2 = Step(cfg, res.State, model.Input{Key: "k3", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	assert.Equal(t, model.RunCompleted, res2.State.Runs[0].Status)

	label := &lang.Stage{ID: "h", Type: lang.StageHuman, WaitFor: lang.WaitLabel, WaitLabel: "qa-ok", Count: 1, OnComplete: lang.TargetComplete}
	cfg.Pipelines[0] = &lang.Pipeline{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{label}} // a loaded pipeline does not change: a new one
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, humanFacts(), t0)
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	// Without `from`, who added the label must have write access and not be the author.
	for _, tc := range []struct {
		actor string
		done  bool
	}{{"alice", true}, {"", false}, {"dev", false}, {"rita", false}} {
		fl := humanFacts()
		fl.People.Permissions["rita"] = "triage"
		fl.PR.Labels = []string{"QA-OK"}
		if tc.actor != "" {
			fl.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "qa-ok", Actor: tc.actor, At: t0}}
		}
		want := map[bool]model.RunStatus{true: model.RunCompleted, false: model.RunWaiting}[tc.done]
		assert.Equal(t, want, Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, fl, t0).State.Runs[0].Status, "labelled by %q", tc.actor)
	}

	dismiss := &lang.Stage{ID: "h", Type: lang.StageHuman, WaitFor: lang.WaitDismiss, Count: 1, OnComplete: lang.TargetComplete}
	cfg.Pipelines[0] = &lang.Pipeline{Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"}, Stages: []*lang.Stage{dismiss}} // a loaded pipeline does not change: a new one
	fd := humanFacts()
	fd.PR.Reviews = []model.Review{{Author: "alice", State: model.ReviewChangesRequested}}
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, fd, t0)
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	fd.PR.Reviews[0].State = model.ReviewDismissed
	fd.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineReviewDismissed, Label: "alice", Actor: "dev", At: t0}}
	assert.Equal(t, model.RunWaiting, Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request_review.dismissed"}, fd, t0).State.Runs[0].Status,
		"the author dismissed the review that blocked them")
	fd.PR.Timeline[0].Actor = "carol"
	assert.Equal(t, model.RunCompleted, Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request_review.dismissed"}, fd, t0).State.Runs[0].Status)
	fd.PR.Timeline = nil

	// With `from`, who dismissed it must be of the group.
	dismiss.From = "maintainers"
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, fd, t0)
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Stages["h"].Results[0].Message, "who dismissed the review of alice is not known")
}

func TestPeopleNeeded(t *testing.T) {
	cfg, f := humanConfig(t, 1), humanFacts()
	cfg.Settings.ChatOpsFrom = []string{"ops"}
	cfg.Groups = append(cfg.Groups, &lang.Group{Name: "ops", Teams: []string{"acme/ops"}})
	assert.True(t, people.Needed(cfg, nil, f).Empty())
	res := settleAll(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)
	assert.True(t, people.Needed(cfg, res.State, f).Empty(), "no one gave anything: nothing to read")
	// alice is a user of the group: no team needs reading for her approval; the author's never counts.
	f.PR.Reviews = []model.Review{{Author: "alice", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA}, {Author: "dev", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA}}
	assert.True(t, people.Needed(cfg, res.State, f).Empty())
	f.PR.Reviews = append(f.PR.Reviews, model.Review{Author: "bob", State: model.ReviewApproved, CommitSHA: "old"})
	assert.True(t, people.Needed(cfg, res.State, f).Empty(), "an approval of an older head cannot count")
	f.PR.Reviews = append(f.PR.Reviews, model.Review{Author: "bob", State: model.ReviewApproved, CommitSHA: f.PR.HeadSHA})
	assert.Equal(t, model.Needs{Teams: []string{"acme/maintainers"}}, people.Needed(cfg, res.State, f))
	f.PR.Reviews = nil
	f.PR.Comments = []model.IssueComment{{ID: 9, Author: "Rita", Body: "/pipeline approve", CreatedAt: t0.Add(time.Minute)}}
	assert.Equal(t, model.Needs{Teams: []string{"acme/maintainers", "acme/ops"}, Permissions: []string{"Rita"}}, people.Needed(cfg, res.State, f))
	res.State.CommandsSeen = 9
	assert.True(t, people.Needed(cfg, res.State, f).Empty(), "a command acted on is not read again")
}

func TestHumanMessagesCarryNoMarker(t *testing.T) {
	cfg, f := humanConfig(t, 1), humanFacts()
	cfg.Pipelines[0].Stages[0].OnEnter = humanTemplate(t, "review {{ github.pr.title }}")
	f.PR.Title = "x <!-- pipeline-action:effect review/7/1/approval/1/reminder-1 -->"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.NotEmpty(t, res.Effects)
	assert.Empty(t, model.PostedEffects(res.Effects[0].Body))
	assert.Contains(t, res.Effects[0].Body, "`x <\u200b!-- pipeline-action:effect")
}

func TestRetryAsksAnew(t *testing.T) {
	cfg := escalateConfig(t)
	f := humanFacts()
	f.People.Permissions = map[string]string{"alice": "write", "bob": "write"}
	f.PR.Reviews = nil
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	st := res.State
	st.Runs[0].Stages["approval"].Approvals = []model.Approval{{Login: "zed", SHA: f.PR.HeadSHA}}
	st.Runs[0].Stages["approval"].Reminders = 2
	f.PR.Comments = []model.IssueComment{command(1, "alice", "/pipeline retry")}
	res = Step(cfg, st, model.Input{Key: "k2", Event: "issue_comment.created"}, f, t0.Add(time.Hour))
	sr := res.State.Runs[0].Stages["approval"]
	assert.Equal(t, 2, sr.Attempt)
	assert.Empty(t, sr.Approvals)
	assert.Zero(t, sr.Reminders)
}
