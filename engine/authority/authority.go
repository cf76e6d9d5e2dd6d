// Package authority holds the rules of whose action counts: who may move a run, and for
// which head and base their word counts. One rule for every way people act — reviews,
// `/pipeline approve` and `skip`, comments, labels, dismissals, chat-ops — judged on the
// facts read in this invocation whenever it is counted, by the merge guard too: never on
// what the state says was allowed once. The kernel and the types of stage read the same
// rules from here.
package authority

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Subject is what the rules read of the subject evaluated beyond the facts: which pull
// request a run would merge, for an issue's or a multi-PR run.
type Subject interface {
	// RunPR is the pull request run's gates and merge read (nil when it has none, or when
	// it was not read).
	RunPR(run *model.Run) *model.PullRequest
	// MayHaveAuthoredRunPR reports whether login is, or may be, the author of a pull
	// request of an issue's or a multi-PR run.
	MayHaveAuthoredRunPR(run *model.Run, login string) bool
}

// Rules are the rules of authority on the facts read in one invocation.
type Rules struct {
	Cfg   *lang.Config
	Facts *model.Facts
	Now   time.Time
	// Issue is the issue evaluated when the subject is one: its comments hold the commands.
	Issue *model.Issue
	// Subject answers for an issue's or a multi-PR run; nil, a run's pull request is
	// Facts.PR and has no other author.
	Subject Subject
}

func (r *Rules) runPR(run *model.Run) *model.PullRequest {
	if r.Subject == nil {
		return r.Facts.PR
	}
	return r.Subject.RunPR(run)
}

func (r *Rules) mayHaveAuthored(run *model.Run, login string) bool {
	return r.Subject != nil && r.Subject.MayHaveAuthoredRunPR(run, login)
}

// headOf is the head of run's pull request: what an approval is given on. "" in an
// issue's run without a pull request.
func (r *Rules) headOf(run *model.Run) string {
	if pr := r.runPR(run); pr != nil {
		return pr.HeadSHA
	}
	return ""
}

// reviewsOf are the reviews of run's pull request (none while an issue's run has none).
func (r *Rules) reviewsOf(run *model.Run) []model.Review {
	if pr := r.runPR(run); pr != nil {
		return pr.Reviews
	}
	return nil
}

// IsAuthor reports whether login authored, or may have authored, a change run would
// merge: the subject's author, the author of an issue run's pull request, any author of
// a multi-PR run's pull requests, or (unless the config allows it) someone who wrote
// commits of the run's pull request. No one approves their own change.
func (r *Rules) IsAuthor(run *model.Run, login string) bool {
	if r.Facts.PR != nil && strings.EqualFold(login, r.Facts.PR.Author) {
		return true
	}
	if r.Facts.Contributed(r.Facts.PR, login) || run != nil && r.Facts.Contributed(r.runPR(run), login) {
		return true
	}
	return run != nil && r.mayHaveAuthored(run, login)
}

// Allowed reports whether login's action counts for stage of run today: someone with write
// access (canPush as GitHub read it with a review, or the permission read for them now)
// who, when the stage names a group, is a member of it now. The authors of the run's
// changes never count, nor the action itself, nor an agent (Facts.IsAgent).
func (r *Rules) Allowed(run *model.Run, stage *lang.Stage, login string, canPush bool) bool {
	if login == "" || model.SameIdentity(login, r.Facts.Viewer) || r.Facts.IsAgent(login) || r.IsAuthor(run, login) {
		return false
	}
	if !canPush && !r.Facts.People.Has(login, "write") {
		return false
	}
	if stage.From == lang.FromCodeOwners {
		return r.ownsAChangedFile(run, login)
	}
	if stage.From != "" {
		return r.Facts.InGroup(r.Cfg.Group(stage.From), login)
	}
	return true
}

// OutdatedAt says why what a person did at time at no longer counts at stage of run, or "":
// it was done before the pull request's last change of base, or, unless the stage keeps
// it on a push (dismiss_stale: false), before the run saw the current head — it may have
// been given on an older commit (in the same second, too: GitHub keeps seconds).
func (r *Rules) OutdatedAt(run *model.Run, stage *lang.Stage, at time.Time) string {
	pr := r.runPR(run)
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

// reviewOutdated says why approving review rv no longer counts at stage of run, or "": it
// was given on another commit than the head (unless the stage keeps approvals on a push),
// or before the last change of base, as GitHub's "dismiss stale approvals" has it.
func (r *Rules) reviewOutdated(run *model.Run, stage *lang.Stage, rv model.Review) string {
	pr := r.runPR(run)
	if pr == nil {
		return "there is no pull request"
	}
	if !stage.KeepOnPush && (pr.HeadSHA == "" || rv.CommitSHA != pr.HeadSHA) {
		return "is on an older commit"
	}
	if base := pr.Last(model.TimelineBaseChanged, ""); !base.IsZero() && !rv.SubmittedAt.After(base) {
		return "predates the change of base to " + pr.BaseRef
	}
	return ""
}

// approvalOutdated says why a stored `/pipeline <verb>` (approve or skip) a no longer
// counts at stage of run, or "": its comment is no longer its author's command
// (CommandGone), it names another head than the current one (unless the stage keeps
// approvals on a push), or its comment is older than the base or the head.
func (r *Rules) approvalOutdated(run *model.Run, stage *lang.Stage, a model.Approval, verb string) string {
	if why := r.CommandGone(a, verb); why != "" {
		return why
	}
	if !stage.KeepOnPush && a.SHA != r.headOf(run) {
		return "was given on an older commit"
	}
	return r.OutdatedAt(run, stage, a.At)
}

// CommandGone says why stored command a (`/pipeline <verb>`) is not its author's word as
// GitHub shows its comment now, or "": the comment is not read (deleted), someone else
// edited it, or it no longer says the command (its author edited it away).
func (r *Rules) CommandGone(a model.Approval, verb string) string {
	comments := r.Facts.PR.Comments
	if r.Issue != nil { // an issue's run: commands are the issue's
		comments = r.Issue.Comments
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
	if v, _, ok := model.ParseCommand(c.Body); !ok || v != verb {
		return fmt.Sprintf("was edited away (comment %d no longer says /pipeline %s)", c.ID, verb)
	}
	return ""
}

// MayCommandAs says why login may not use commands today, or "": the permission
// settings.chatops.permission names (default write), read now, and membership now of a
// group of settings.chatops.from when it is set. An agent's login never may.
func (r *Rules) MayCommandAs(login string) string {
	if r.Facts.IsAgent(login) {
		return fmt.Sprintf("commands are taken from people, and @%s is the login of an agent", login)
	}
	need := r.Cfg.Settings.ChatOpsPermission
	if need == "" {
		need = model.DefaultChatOpsPermission
	}
	if !r.Facts.People.Has(login, need) {
		have, ok := r.Facts.People.Permission(login)
		if !ok {
			have = "not known"
		}
		return fmt.Sprintf("it needs %s permission on this repository, and @%s's is %s", need, login, have)
	}
	if from := r.Cfg.Settings.ChatOpsFrom; len(from) > 0 {
		for _, name := range from {
			if r.Facts.InGroup(r.Cfg.Group(name), login) {
				return ""
			}
		}
		return fmt.Sprintf("only members of %s may use commands", strings.Join(from, ", "))
	}
	return ""
}
