package core

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Suffixes of the effect keys of a human stage (<run>/<stage>/<attempt>/<suffix>).
const (
	NoticeOnEnter  = "on_enter"
	NoticeRequest  = "request_reviewers"
	NoticeReminder = "reminder-" // + the reminder's number
)

func HumanKey(run *model.Run, stage *lang.Stage, attempt int, suffix string) string {
	return fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, attempt, suffix)
}

// ArmReminder arms the first reminder of a human stage with `notify.reminder`.
func ArmReminder(stage *lang.Stage, sr *model.StageRun, now time.Time) {
	if stage.Type == lang.StageHuman && stage.Reminder != nil && stage.Reminder.Interval > 0 {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineReminder, At: now.Add(stage.Reminder.Interval)})
	}
}

// GroupMentions is "@user @org/team" for the stage's group (the author left out), or "".
func (e *Eval) GroupMentions(stage *lang.Stage) string {
	g := e.Cfg.Group(stage.From)
	if g == nil {
		return ""
	}
	var out []string
	for _, u := range g.Users {
		if !strings.EqualFold(u, e.Facts.PR.Author) {
			out = append(out, "@"+u)
		}
	}
	for _, t := range g.Teams {
		out = append(out, "@"+t)
	}
	return strings.Join(out, " ")
}

// ReviewersOf returns whom auto_assign asks for a review: the group's users but the PR's
// author and the action itself, and its teams that belong to the repository's owner
// (GitHub requests reviews only from teams of the repository's organization), by slug.
func (e *Eval) ReviewersOf(stage *lang.Stage) (users, teams []string) {
	g := e.Cfg.Group(stage.From)
	if g == nil {
		return nil, nil
	}
	owner, _, _ := strings.Cut(e.Facts.Repo, "/")
	for _, u := range g.Users {
		if !strings.EqualFold(u, e.Facts.PR.Author) && !model.SameIdentity(u, e.Facts.Viewer) {
			users = append(users, u)
		}
	}
	for _, t := range g.Teams {
		if org, slug, ok := strings.Cut(t, "/"); ok && strings.EqualFold(org, owner) {
			teams = append(teams, slug)
		}
	}
	return users, teams
}

// WaitsFor says what the stage waits for, with count n (0: the stage's count).
func (e *Eval) WaitsFor(stage *lang.Stage, n int) string {
	if n == 0 {
		n = max(stage.Count, 1)
	}
	switch stage.WaitFor {
	case lang.WaitApproval:
		return fmt.Sprintf("%d %s on the current head", n, model.Plural(n, "approval", "approvals"))
	case lang.WaitComment:
		what := model.Plural(n, "comment", "comments")
		if stage.Pattern != "" {
			what += " matching " + stage.Pattern
		}
		return fmt.Sprintf("%d %s", n, what)
	case lang.WaitLabel:
		return "the label " + stage.WaitLabel
	case lang.WaitDismiss:
		return "the blocking review to be dismissed"
	}
	return stage.WaitFor
}

// HowToMove says what a person does to move a human stage, for the status.
func HowToMove(stage *lang.Stage) string {
	switch stage.WaitFor {
	case lang.WaitApproval:
		return "with an approving review or a /pipeline approve comment"
	case lang.WaitComment:
		if stage.Pattern != "" {
			return "with a comment matching " + strconv.Quote(stage.Pattern)
		}
		return "with a comment"
	case lang.WaitLabel:
		return "by adding the label " + strconv.Quote(stage.WaitLabel)
	case lang.WaitDismiss:
		return "by dismissing the blocking review"
	}
	return ""
}

func HumanDone(stage *lang.Stage, who []string) string {
	switch stage.WaitFor {
	case lang.WaitApproval:
		return "approved by " + strings.Join(who, ", ")
	case lang.WaitComment:
		return "commented by " + strings.Join(who, ", ")
	}
	return strings.Join(who, ", ")
}

// InertMarkers keeps text that may hold what others wrote (a PR's title) from carrying an
// HTML comment into the action's own comment, where a forged state or effect marker would
// be read as the action's word: "<!--" is written "&lt;!--".
func InertMarkers(s string) string {
	return strings.ReplaceAll(s, "<!--", "&lt;!--")
}

func (e *Eval) StageEffectDone(run *model.Run, stage *lang.Stage, sr *model.StageRun, suffix string, o model.Outcome) {
	switch {
	case o.Err == "":
	case suffix == NoticeRequest || o.Permanent:
		// Not tried again: the stage does not depend on it.
		e.Logf("run %s: %s: %s failed for good: %s", run.ID, stage.ID, suffix, o.Err)
	default:
		e.NoteRefused(run)
		sr.Message = o.Err + "; trying again on the next event"
		e.Logf("run %s: %s: %s: %s", run.ID, stage.ID, suffix, sr.Message)
		return
	}
	run.Applied = model.AppendOnce(run.Applied, o.Key)
	if n, ok := strings.CutPrefix(suffix, NoticeReminder); ok {
		var k int
		fmt.Sscanf(n, "%d", &k)
		if k > sr.Reminders {
			sr.Reminders = k
		}
	}
}

// FindStageEffect finds the live human stage whose current attempt key belongs to.
func (e *Eval) FindStageEffect(key string) (*model.Run, *lang.Stage, *model.StageRun, string) {
	for _, run := range e.St.Runs {
		if run.Status.Final() {
			continue
		}
		p := e.Cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		sr := run.Stages[run.Stage]
		if stage == nil || stage.Type != lang.StageHuman || sr == nil {
			continue
		}
		if suffix, ok := strings.CutPrefix(key, fmt.Sprintf("%s/%s/%d/", run.ID, stage.ID, sr.Attempt)); ok {
			return run, stage, sr, suffix
		}
	}
	return nil, nil, nil, ""
}
