package human

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"

	"github.com/org/pipeline-action/engine/lang"
)

// Suffixes of the effect keys of a human stage (<run>/<stage>/<attempt>/<suffix>).
const (
	NoticeOnEnter  = "on_enter"
	NoticeRequest  = "request_reviewers"
	NoticeReminder = "reminder-" // + the reminder's number
)

// Key is the key of the effect suffix of the stage's attempt.
func Key(run *model.Run, stage *lang.Stage, attempt int, suffix string) string {
	return fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, attempt, suffix)
}

// groupMentions is "@user @org/team" for the stage's group (the author left out), or "".
func groupMentions(c stage.Context, stage *lang.Stage) string {
	g := groupOf(c, stage)
	if g == nil {
		return ""
	}
	var out []string
	for _, u := range g.Users {
		if !strings.EqualFold(u, c.Facts().PR.Author) {
			out = append(out, "@"+u)
		}
	}
	for _, t := range g.Teams {
		out = append(out, "@"+t)
	}
	return strings.Join(out, " ")
}

// reviewersOf returns whom auto_assign asks for a review: the group's users but the PR's
// author and the action itself, and its teams that belong to the repository's owner
// (GitHub requests reviews only from teams of the repository's organization), by slug.
func reviewersOf(c stage.Context, stage *lang.Stage) (users, teams []string) {
	g := groupOf(c, stage)
	if g == nil {
		return nil, nil
	}
	owner, _, _ := strings.Cut(c.Facts().Repo, "/")
	for _, u := range g.Users {
		if !strings.EqualFold(u, c.Facts().PR.Author) && !model.SameIdentity(u, c.Facts().Viewer) {
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

// groupOf is the group the stage's `from` names; for `from: codeowners`, the owners of the
// files the pull request changes (logins and teams; e-mail addresses are no one to ask).
func groupOf(c stage.Context, stage *lang.Stage) *lang.Group {
	pr := c.Facts().PR
	if stage.From != lang.FromCodeOwners {
		return c.Authority().Cfg.Group(stage.From)
	}
	if pr == nil || pr.CodeOwners == nil {
		return nil
	}
	g := &lang.Group{Name: lang.FromCodeOwners}
	for _, of := range pr.CodeOwners.Owned(pr.Files) {
		for _, o := range of.Owners {
			name, ok := strings.CutPrefix(o, "@")
			switch {
			case !ok:
			case strings.Contains(name, "/") && !slices.Contains(g.Teams, name):
				g.Teams = append(g.Teams, name)
			case !strings.Contains(name, "/") && !slices.Contains(g.Users, name):
				g.Users = append(g.Users, name)
			}
		}
	}
	return g
}

// waitsFor says what the stage waits for, with count n (0: the stage's count).
func waitsFor(stage *lang.Stage, n int) string {
	if n == 0 {
		n = max(stage.Count, 1)
	}
	switch {
	case stage.WaitFor == lang.WaitApproval && stage.From == lang.FromCodeOwners:
		return "an approval on the current head by a code owner of each owned file"
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

// howToMove says what a person does to move a human stage, for the status.
func howToMove(stage *lang.Stage) string {
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

// done says who gave what the stage waited for.
func done(stage *lang.Stage, who []string) string {
	switch stage.WaitFor {
	case lang.WaitApproval:
		return "approved by " + strings.Join(who, ", ")
	case lang.WaitComment:
		return "commented by " + strings.Join(who, ", ")
	}
	return strings.Join(who, ", ")
}

// Settled records o, the outcome of the effect suffix of the attempt of s that sr records,
// and reports whether GitHub refused it for now: it is asked for again on the next event.
// A request for reviews, or an effect refused for good, is not tried again: the stage does
// not depend on it.
func Settled(run *model.Run, s *lang.Stage, sr *model.StageRun, suffix string, o model.Outcome, logf func(string, ...any)) (refused bool) {
	switch {
	case o.Err == "":
	case suffix == NoticeRequest || o.Permanent:
		logf("run %s: %s: %s failed for good: %s", run.ID, s.ID, suffix, o.Err)
	default:
		sr.Message = o.Err + "; trying again on the next event"
		logf("run %s: %s: %s: %s", run.ID, s.ID, suffix, sr.Message)
		return true
	}
	run.Applied = model.AppendOnce(run.Applied, o.Key)
	if n, ok := strings.CutPrefix(suffix, NoticeReminder); ok {
		var k int
		fmt.Sscanf(n, "%d", &k)
		if k > sr.Reminders {
			sr.Reminders = k
		}
	}
	return false
}
