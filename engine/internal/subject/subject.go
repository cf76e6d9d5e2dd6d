// Package subject holds the kinds of subject a run has: a pull request, an issue, and an
// issue whose run follows pull requests of several repositories (multi-PR). A kind says what
// the head of a run is, what it adds to the expression environment, how an agent's report
// associates a pull request with a run, and what closing the subject does. The evaluator
// is seen through Kernel; everything else here is plain data over model.Facts and
// model.Run.
package subject

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Issue is what an evaluation of an issue keeps: the issue, the facts as read (Base) and
// the facts with the issue's view as their PR (View).
//
// Inside the engine the issue is seen as the subject through a PullRequest value that
// carries only what an issue has (number, title, state, author, labels, comments, the
// action's posted markers, timeline): the code that speaks to the subject (comments,
// dispatches, chat-ops, labels) is the same for both. What needs a pull request — gates,
// the guard, merging — runs on the run's own pull request, never on that view.
type Issue struct {
	Issue *model.Issue
	Base  *model.Facts
	View  *model.Facts
}

// NewIssue is the issue subject of facts f, or nil when f's subject is a pull request (or
// there is none).
func NewIssue(f *model.Facts) *Issue {
	if f == nil || f.Issue == nil || f.PR != nil {
		return nil
	}
	is := f.Issue
	st := model.PROpen
	if is.State != model.IssueOpen {
		st = model.PRClosed
	}
	v := *f
	v.PR = &model.PullRequest{Number: is.Number, Title: is.Title, State: st, Author: is.Author,
		Labels: is.Labels, CreatedAt: is.CreatedAt, Timeline: is.Timeline, Comments: is.Comments, Posted: is.Posted}
	return &Issue{Issue: is, Base: f, View: &v}
}

// Scope is the subject of one evaluation as it stands: Facts are the facts the evaluation
// reads now (an issue's view, or a pull request put in place for a gate or a merge), Issue
// the issue subject, nil when the subject is a pull request.
type Scope struct {
	Facts *model.Facts
	Issue *Issue
}

// base is the facts as read: the issue's own in an issue's evaluation.
func (s Scope) base() *model.Facts {
	if s.Issue != nil {
		return s.Issue.Base
	}
	return s.Facts
}

// Own is the subject's repository.
func (s Scope) Own() string { return s.base().Repo }

// PrOf is the pull request ref names in the facts read (nil when it was not read).
func (s Scope) PrOf(ref model.PRRef) *model.PullRequest {
	base := s.base()
	if ref.Own(base.Repo) {
		if s.Issue == nil {
			if base.PR != nil && base.PR.Number == ref.Number {
				return base.PR
			}
			return nil
		}
		return base.PRs[ref.Number]
	}
	return base.Others[ref.Key()]
}

// RunPR is the pull request run's gates and merge read: the subject itself in a pull
// request's run; in an issue's run, its context.pr_number as read (nil when it has none, or
// when it was not read).
func (s Scope) RunPR(run *model.Run) *model.PullRequest {
	if s.Issue == nil {
		return s.Facts.PR
	}
	ref, ok := RunPRRef(run) // N, or owner/name#N
	if !ok {
		return nil
	}
	return s.PrOf(ref)
}

// Head is the head of run's pull request: what an approval is given on. "" in an issue's
// run without a pull request.
func (s Scope) Head(run *model.Run) string {
	if pr := s.RunPR(run); pr != nil {
		return pr.HeadSHA
	}
	return ""
}

// RunHasPR reports whether ref is one of run's pull requests (context.prs): merge_pr merges
// nothing else, whatever a template renders.
func (s Scope) RunHasPR(run *model.Run, ref model.PRRef) bool {
	own := s.Own()
	if ref.Repo == "" {
		ref.Repo = own
	}
	for _, have := range model.RunPRRefs(run, own) {
		if have.Key() == ref.Key() {
			return true
		}
	}
	return false
}

// OtherRepo is the repository of the facts' PR when it is not the subject's (a pull
// request of another repository put in place for a gate or a merge), or "".
func (s Scope) OtherRepo() string {
	if s.Issue == nil || strings.EqualFold(s.Facts.Repo, s.Issue.Base.Repo) {
		return ""
	}
	return s.Facts.Repo
}

// Fits reports whether pipeline p runs on the subject: pipelines on issues (OnIssues) on
// issues, the others on pull requests.
func (s Scope) Fits(p *lang.Pipeline) bool { return (s.Issue != nil) == p.OnIssues() }

// RunPRRef is run's context.pr_number as a reference, and whether it has one.
func RunPRRef(run *model.Run) (model.PRRef, bool) {
	if run == nil {
		return model.PRRef{}, false
	}
	return model.ParsePRRef(run.Context["pr_number"])
}

// TriggerSince is TriggerStateSince for an issue: issues.opened holds since the issue was
// opened, issues.reopened since it was last reopened, issues.labeled with labels since the
// last of them was added; other issue events are happenings.
func (is *Issue) TriggerSince(p *lang.Pipeline) (time.Time, bool) {
	t := p.Trigger
	view := is.View.PR
	switch t.Event {
	case "issues.opened":
		return is.Issue.CreatedAt, true
	case "issues.reopened":
		return view.Last(model.TimelineReopened, ""), true
	case "issues.labeled":
		if len(t.Labels) == 0 {
			return time.Time{}, false
		}
		var since time.Time
		for _, l := range t.Labels {
			if !is.Issue.HasLabel(l) {
				return time.Time{}, true
			}
			at := view.Last(model.TimelineLabeled, l)
			if at.IsZero() {
				at = is.Issue.CreatedAt
			}
			if at.After(since) {
				since = at
			}
		}
		return since, true
	}
	return time.Time{}, false
}

// LinkNote says why the links of f's pull request were read from its body.
func LinkNote(f *model.Facts) string {
	pr := f.PR
	def := f.DefaultBranch
	if def == "" {
		def = "the default branch"
	}
	return fmt.Sprintf("#%d (GitHub links issues only to pull requests into %s, not into %s)", pr.Number, def, pr.BaseRef)
}

// SamePR reports whether a and b name the same pull request, a reference without a
// repository meaning one of own.
func SamePR(a, b model.PRRef, own string) bool {
	if a.Repo == "" {
		a.Repo = own
	}
	if b.Repo == "" {
		b.Repo = own
	}
	return a.Number == b.Number && strings.EqualFold(a.Repo, b.Repo)
}

// NoteHeads records the head of every open run's pull request as seen now (see NoteHead).
func NoteHeads(runs []*model.Run, note func(*model.Run)) {
	for _, run := range runs {
		if !run.Status.Final() {
			note(run)
		}
	}
}
