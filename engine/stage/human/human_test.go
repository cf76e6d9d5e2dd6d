package human

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `version: 1
groups:
  maintainers: {users: [alice, dev], teams: [acme/maintainers]}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: approval
        type: human
        wait_for: approval
        from: maintainers
        auto_assign: true
        notify:
          on_enter: "PR #{{ context.pr_number }} waits for review"
          reminder: {interval: 24h, max_reminders: 2}
        on_complete: done
      - id: done
        type: gate
        conditions: [{check: ci_status}]
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// setup is a run at the approval stage of a pull request by dev, whose maintainers are
// alice and the team acme/maintainers (bob).
func setup(t *testing.T) (*stagetest.Context, *model.Run, *lang.Stage) {
	t.Helper()
	cfg := stagetest.Config(t, src)
	p := cfg.Pipeline("p")
	run, s := stagetest.At(t, p, "approval")
	run.Stages["approval"].EnteredAt = now.Add(-time.Hour)
	c := stagetest.New(p, now)
	c.Cfg = cfg
	c.F.Repo = "acme/widgets"
	c.F.PR.Author = "dev"
	c.F.Viewer = "pipeline-bot[bot]"
	c.F.TeamMembers = map[string][]string{"acme/maintainers": {"bob"}}
	c.F.People = model.People{Permissions: map[string]string{"alice": "write", "bob": "maintain", "dev": "write", "mallory": "write"}}
	return c, run, s
}

func approve(c *stagetest.Context, who string) {
	c.F.PR.Reviews = append(c.F.PR.Reviews, model.Review{Author: who, State: model.ReviewApproved,
		CommitSHA: c.F.PR.HeadSHA, SubmittedAt: now.Add(-time.Minute)})
}

func TestPassesOnAnApprovalThatCounts(t *testing.T) {
	c, run, s := setup(t)
	approve(c, "bob")
	d := Type{}.Step(c, run, s)
	assert.Equal(t, stage.Leave(model.StagePassed, "done", "approved by bob"), d)
	assert.Equal(t, []any{"bob"}, run.Stages["approval"].Outputs["by"], "who counted is handed on")
	assert.Empty(t, c.Emitted, "a stage that holds asks for nothing")
}

func TestWaitsAndAsksOncePerAttempt(t *testing.T) {
	c, run, s := setup(t)
	approve(c, "dev")     // the author
	approve(c, "mallory") // not of the group
	d := Type{}.Step(c, run, s)
	assert.Equal(t, stage.Stay(), d)
	sr := run.Stages["approval"]
	assert.Equal(t, model.StageWaiting, sr.Status)
	assert.Equal(t, model.RunWaiting, run.Status)
	require.NotEmpty(t, sr.Results)
	assert.Contains(t, sr.Results[0].Message, "waits for 1 approval on the current head; has 0")
	assert.Contains(t, sr.Results[0].Message, "mallory does not count here")
	assert.Contains(t, sr.Results[0].Who, "group maintainers")

	require.Len(t, c.Emitted, 2)
	assert.Equal(t, model.Effect{Key: "p#1/approval/1/on_enter", Run: "p#1", Stage: "approval", Kind: model.EffectComment,
		Number: 7, Body: "PR #7 waits for review", WriteAhead: true}, c.Emitted[0])
	assert.Equal(t, model.EffectRequestReviewers, c.Emitted[1].Kind)
	assert.Equal(t, []string{"alice"}, c.Emitted[1].Reviewers, "never the author")
	assert.Equal(t, []string{"maintainers"}, c.Emitted[1].Teams, "a team of the repository's owner, by slug")
	assert.Len(t, c.Intended, 1, "only the comment is written ahead")

	run.Applied = append(run.Applied, "p#1/approval/1/on_enter", "p#1/approval/1/request_reviewers")
	c.Emitted, c.Intended = nil, nil
	Type{}.Step(c, run, s)
	assert.Empty(t, c.Emitted, "asked for once per attempt")
}

func TestAsksNothingWhenGitHubJustRefused(t *testing.T) {
	c, run, s := setup(t)
	c.Refusal = true
	assert.Equal(t, stage.Stay(), Type{}.Step(c, run, s))
	assert.Empty(t, c.Emitted)
	assert.NotEmpty(t, run.Stages["approval"].Results, "the status still says what it waits for")
}

func TestReminders(t *testing.T) {
	c, run, s := setup(t)
	sr := run.Stages["approval"]
	Type{}.Arm(s, sr, now)
	require.Equal(t, []model.Deadline{{Kind: model.DeadlineReminder, At: now.Add(24 * time.Hour)}}, sr.Deadlines)
	sr.Deadlines = nil

	c.T = now.Add(50 * time.Hour)
	d, handled := Type{}.Deadline(c, run, s, model.Deadline{Kind: model.DeadlineReminder, At: now.Add(24 * time.Hour)})
	assert.True(t, handled)
	assert.Equal(t, stage.Stay(), d)
	require.Len(t, c.Emitted, 1)
	assert.Equal(t, "p#1/approval/1/reminder-1", c.Emitted[0].Key)
	assert.Equal(t, `@alice @acme/maintainers Reminder: stage "approval" still waits for 1 approval on the current head.`, c.Emitted[0].Body)
	assert.Equal(t, []model.Deadline{{Kind: model.DeadlineReminder, At: now.Add(72 * time.Hour), N: 1}}, sr.Deadlines,
		"the next one after now, on the interval")

	c.Emitted, sr.Deadlines = nil, nil
	Type{}.Deadline(c, run, s, model.Deadline{Kind: model.DeadlineReminder, At: now, N: 1})
	require.Len(t, c.Emitted, 1, "the second and last")
	assert.Empty(t, sr.Deadlines, "max_reminders: no third")

	c.Emitted = nil
	approve(c, "alice")
	Type{}.Deadline(c, run, s, model.Deadline{Kind: model.DeadlineReminder, At: now})
	assert.Empty(t, c.Emitted, "a stage that holds reminds no one")

	_, handled = Type{}.Deadline(c, run, s, model.Deadline{Kind: model.DeadlineTimeout})
	assert.False(t, handled, "a kind of the kernel's")
}

func TestRecheckOnTodaysFacts(t *testing.T) {
	c, run, s := setup(t)
	g := stagetest.Guard{Witnessed: stagetest.Witnessed{Rules: c.Authority(), Walked: run}}
	assert.Equal(t, stage.Stops, Type{}.Recheck(g, s))
	approve(c, "alice")
	assert.Equal(t, stage.Holds, Type{}.Recheck(g, s))
	c.F.People.Permissions["alice"] = "read" // her permission today, not when she approved
	assert.Equal(t, stage.Stops, Type{}.Recheck(g, s))
	g.Skipped = map[string]bool{"approval": true}
	assert.Equal(t, stage.Skips, Type{}.Recheck(g, s))
}

func TestStillHolds(t *testing.T) {
	c, run, s := setup(t)
	g := stagetest.Guard{Witnessed: stagetest.Witnessed{Rules: c.Authority(), Walked: run}}
	sr := &model.StageRun{Status: model.StageWaiting}
	assert.True(t, Type{}.StillHolds(g, s, sr), "a stage the run did not leave is the walk's to judge")
	sr.Status = model.StagePassed
	assert.False(t, Type{}.StillHolds(g, s, sr), "passed once, but no approval counts today")
	approve(c, "bob")
	assert.True(t, Type{}.StillHolds(g, s, sr))
}

func TestSettled(t *testing.T) {
	run := &model.Run{ID: "p#1"}
	s := &lang.Stage{ID: "approval"}
	sr := &model.StageRun{Attempt: 1}
	var log []string
	logf := func(string, ...any) { log = append(log, "x") }
	assert.False(t, Settled(run, s, sr, "reminder-2", model.Outcome{Key: "k2"}, logf))
	assert.Equal(t, 2, sr.Reminders)
	assert.Equal(t, []string{"k2"}, run.Applied)

	assert.True(t, Settled(run, s, sr, "on_enter", model.Outcome{Key: "k3", Err: "secondary rate limit"}, logf), "tried again")
	assert.Equal(t, "secondary rate limit; trying again on the next event", sr.Message)
	assert.NotContains(t, run.Applied, "k3")

	assert.False(t, Settled(run, s, sr, NoticeRequest, model.Outcome{Key: "k4", Err: "not a collaborator"}, logf), "a courtesy")
	assert.Contains(t, run.Applied, "k4")
	assert.Len(t, log, 2)
}
