package core

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Who may move a run, and for which head and base their word counts. One rule for every
// way people act at a human stage — reviews, `/pipeline approve` and `skip`, comments,
// labels, dismissals — judged on the facts read in this invocation whenever it is
// counted, by the merge guard too: never on what the state says was allowed once.

// IsAuthor reports whether login authored, or may have authored, a change run would
// merge: the subject's author, the author of an issue run's pull request, any author of
// a multi-PR run's pull requests, or (unless the config allows it) someone who wrote
// commits of the run's pull request. No one approves their own change.
func (e *Eval) IsAuthor(run *model.Run, login string) bool {
	if e.Facts.PR != nil && strings.EqualFold(login, e.Facts.PR.Author) {
		return true
	}
	if e.Facts.Contributed(e.Facts.PR, login) || run != nil && e.Facts.Contributed(e.RunPR(run), login) {
		return true
	}
	return run != nil && e.MayHaveAuthoredRunPR(run, login)
}

// RunAuthors lists the authors of the pull requests run would merge when it is an issue's
// or a multi-PR run (a pull request's own run has its subject's author only).
func (e *Eval) RunAuthors(run *model.Run) []string {
	if run == nil || e.Issue == nil {
		return nil
	}
	var out []string
	if pr := e.RunPR(run); pr != nil {
		out = append(out, pr.Author)
	}
	if p := e.Cfg.PipelineFor(run); p.IsMultiPR() {
		for _, ref := range model.RunPRRefs(run, e.Issue.Base.Repo) {
			if pr := e.PrOf(ref); pr != nil {
				out = append(out, pr.Author)
			}
		}
	}
	return out
}

// Allowed reports whether login's action counts for stage of run today: someone with write
// access (canPush as GitHub read it with a review, or the permission read for them now)
// who, when the stage names a group, is a member of it now. The authors of the run's
// changes never count, nor the action itself, nor an agent (Facts.IsAgent).
func (e *Eval) Allowed(run *model.Run, stage *lang.Stage, login string, canPush bool) bool {
	if login == "" || model.SameIdentity(login, e.Facts.Viewer) || e.Facts.IsAgent(login) || e.IsAuthor(run, login) {
		return false
	}
	if !canPush && !e.Facts.People.Has(login, "write") {
		return false
	}
	if stage.From != "" {
		return e.Facts.InGroup(e.Cfg.Group(stage.From), login)
	}
	return true
}

// NoteHeads records the head of every open run's pull request as seen now, and when a
// run first saw it after another (Run.HeadSince).
func (e *Eval) NoteHeads() {
	for _, run := range e.St.Runs {
		if run.Status.Final() {
			continue
		}
		e.NoteHead(run)
	}
}

func (e *Eval) NoteHead(run *model.Run) {
	head := e.HeadOf(run)
	if head == "" || head == run.Head {
		return
	}
	if run.Head != "" {
		run.HeadSince = e.Now
	}
	run.Head = head
}

// OutdatedAt says why what a person did at time at no longer counts at stage of run, or "":
// it was done before the pull request's last change of base, or, unless the stage keeps
// it on a push (dismiss_stale: false), before the run saw the current head — it may have
// been given on an older commit (in the same second, too: GitHub keeps seconds).
func (e *Eval) OutdatedAt(run *model.Run, stage *lang.Stage, at time.Time) string {
	pr := e.RunPR(run)
	if pr == nil {
		return ""
	}
	if base := pr.Last(model.TimelineBaseChanged, ""); !base.IsZero() && !at.After(base) {
		return "given before the base changed to " + pr.BaseRef
	}
	if !stage.KeepOnPush && !run.HeadSince.IsZero() && !at.After(run.HeadSince) {
		return "given before the head moved to " + model.Short(run.Head)
	}
	return ""
}

// reviewOutdated says why approving review r no longer counts at stage of run, or "": it
// was given on another commit than the head (unless the stage keeps approvals on a push),
// or before the last change of base, as GitHub's "dismiss stale approvals" has it.
func (e *Eval) reviewOutdated(run *model.Run, stage *lang.Stage, r model.Review) string {
	pr := e.RunPR(run)
	if pr == nil {
		return "there is no pull request"
	}
	if !stage.KeepOnPush && (pr.HeadSHA == "" || r.CommitSHA != pr.HeadSHA) {
		return "is on an older commit"
	}
	if base := pr.Last(model.TimelineBaseChanged, ""); !base.IsZero() && !r.SubmittedAt.After(base) {
		return "predates the change of base to " + pr.BaseRef
	}
	return ""
}

// approvalOutdated says why a stored `/pipeline <verb>` (approve or skip) a no longer
// counts at stage of run, or "": its comment is no longer its author's command
// (CommandGone), it names another head than the current one (unless the stage keeps
// approvals on a push), or its comment is older than the base or the head.
func (e *Eval) approvalOutdated(run *model.Run, stage *lang.Stage, a model.Approval, verb string) string {
	if why := e.CommandGone(a, verb); why != "" {
		return why
	}
	if !stage.KeepOnPush && a.SHA != e.HeadOf(run) {
		return "was given on an older commit"
	}
	return e.OutdatedAt(run, stage, a.At)
}

// CommandGone says why stored command a (`/pipeline <verb>`) is not its author's word as
// GitHub shows its comment now, or "": the comment is not read (deleted), someone else
// edited it, or it no longer says the command (its author edited it away).
func (e *Eval) CommandGone(a model.Approval, verb string) string {
	comments := e.Facts.PR.Comments
	if e.Issue != nil && e.Issue.Issue != nil { // an issue's run: commands are the issue's
		comments = e.Issue.Issue.Comments
	}
	var c *model.IssueComment
	for i := range comments {
		if a.Comment != 0 && comments[i].ID == a.Comment {
			c = &comments[i]
		}
	}
	return StillCommand(c, a, verb)
}

// StillCommand is CommandGone on comment c as read now (nil: not read, or deleted).
func StillCommand(c *model.IssueComment, a model.Approval, verb string) string {
	switch {
	case c == nil:
		return fmt.Sprintf("was deleted (comment %d is not among the comments read)", a.Comment)
	case c.Disowned() || !strings.EqualFold(c.Author, a.Login):
		return fmt.Sprintf("was edited by %s (comment %d)", cmp.Or(c.EditedBy, "someone else"), c.ID)
	}
	if v, _, ok := ParseCommand(c.Body); !ok || v != verb {
		return fmt.Sprintf("was edited away (comment %d no longer says /pipeline %s)", c.ID, verb)
	}
	return ""
}
