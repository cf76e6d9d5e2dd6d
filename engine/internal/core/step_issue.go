package core

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// issueSubject is what an evaluation of an issue keeps: the issue, the facts as read and the
// facts with the issue's view as their PR.
type issueSubject struct {
	Issue *model.Issue
	Base  *model.Facts
	view  *model.Facts
}

// IssueView sets up the evaluation of an issue subject: e.facts becomes the facts with the
// issue as their PR (see above).
func (e *Eval) IssueView() {
	f := e.Facts
	if f == nil || f.Issue == nil || f.PR != nil {
		return
	}
	is := f.Issue
	st := model.PROpen
	if is.State != model.IssueOpen {
		st = model.PRClosed
	}
	v := *f
	v.PR = &model.PullRequest{Number: is.Number, Title: is.Title, State: st, Author: is.Author,
		Labels: is.Labels, CreatedAt: is.CreatedAt, Timeline: is.Timeline, Comments: is.Comments, Posted: is.Posted}
	e.Issue = &issueSubject{Issue: is, Base: f, view: &v}
	e.Facts = &v
}

// ScopeFits reports whether pipeline p runs on the subject evaluated: pipelines on issues
// (OnIssues) on issues, the others on pull requests.
func (e *Eval) ScopeFits(p *lang.Pipeline) bool {
	return (e.Issue != nil) == p.OnIssues()
}

// runPR is the pull request run's gates and merge read: the subject itself in a pull
// request's run; in an issue's run, its context.pr_number as read (nil when it has none, or
// when it was not read).
func (e *Eval) RunPR(run *model.Run) *model.PullRequest {
	if e.Issue == nil {
		return e.Facts.PR
	}
	ref, ok := RunPRRef(run) // N, or owner/name#N
	if !ok {
		return nil
	}
	return e.PrOf(ref)
}

// OnRunPR makes pr the PR of e.facts until the returned function is called.
func (e *Eval) OnRunPR(pr *model.PullRequest) func() {
	old := e.Facts
	f := *e.Issue.Base
	f.PR = pr
	e.Facts = &f
	return func() { e.Facts = old }
}

// issueTriggerSince is TriggerStateSince for an issue: issues.opened holds since the issue
// was opened, issues.reopened since it was last reopened, issues.labeled with labels since
// the last of them was added; other issue events are happenings.
func (e *Eval) issueTriggerSince(p *lang.Pipeline) (time.Time, bool) {
	is, t := e.Issue.Issue, p.Trigger
	view := e.Issue.view.PR
	switch t.Event {
	case "issues.opened":
		return is.CreatedAt, true
	case "issues.reopened":
		return view.Last(model.TimelineReopened, ""), true
	case "issues.labeled":
		if len(t.Labels) == 0 {
			return time.Time{}, false
		}
		var since time.Time
		for _, l := range t.Labels {
			if !is.HasLabel(l) {
				return time.Time{}, true
			}
			at := view.Last(model.TimelineLabeled, l)
			if at.IsZero() {
				at = is.CreatedAt
			}
			if at.After(since) {
				since = at
			}
		}
		return since, true
	}
	return time.Time{}, false
}

// Associate applies the outputs.pr of an accepted report of run: the pull request it names
// becomes the run's (see above). A pull request run ignores it (it has its own).
func (e *Eval) Associate(run *model.Run, outputs map[string]any) {
	v, ok := outputs["pr"]
	if !ok {
		return
	}
	if e.Issue == nil {
		if n := model.ContextInt(v); n != e.Facts.PR.Number {
			e.Logf("run %s: outputs.pr %v ignored: a pull request's run follows its own pull request, #%d", run.ID, v, e.Facts.PR.Number)
		}
		return
	}
	n := model.ContextInt(v)
	if s, isStr := v.(string); isStr {
		fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(s), "#"), "%d", &n)
	}
	if why := e.refuseAssociation(n); why != "" {
		msg := fmt.Sprintf("outputs.pr %v refused: %s", v, why)
		e.Logf("run %s: %s", run.ID, msg)
		run.Message = msg
		return
	}
	if run.Context == nil {
		run.Context = map[string]any{}
	}
	if model.RunPR(run) == 0 {
		run.Context["pr_number"] = n
	}
	prs := model.RunPRs(run)
	for _, have := range prs {
		if have == n {
			return
		}
	}
	prs = append(prs, n)
	sort.Ints(prs)
	list := make([]any, len(prs))
	for i, x := range prs {
		list[i] = x
	}
	run.Context["prs"] = list
	e.Logf("run %s: pull request #%d is associated with it (context.pr_number is #%d)", run.ID, n, model.RunPR(run))
}

// refuseAssociation says why pull request n cannot be associated with an issue's run, or "".
func (e *Eval) refuseAssociation(n int) string {
	if n <= 0 {
		return "not a pull request number"
	}
	pr := e.Issue.Base.PRs[n]
	switch {
	case pr == nil:
		return fmt.Sprintf("#%d is not a pull request of %s (or it was not read)", n, e.Facts.Repo)
	case pr.CrossRepo || !strings.EqualFold(pr.HeadRepo, e.Facts.Repo):
		return fmt.Sprintf("the head branch of #%d is not a branch of %s (a fork's pull request is not associated)", n, e.Facts.Repo)
	case pr.State != model.PROpen:
		return fmt.Sprintf("#%d is %s", n, pr.State)
	}
	return ""
}

// SubjectView is f with the issue as its PR, as an evaluation of an issue sees it.
func SubjectView(f *model.Facts) *model.Facts {
	e := &Eval{Facts: f}
	e.IssueView()
	return e.Facts
}

// RunPRIn is run's pull request in facts f as PeopleNeeded reads them (f.PR is the subject:
// in an issue's evaluation, its view); an empty pull request when it has none.
func RunPRIn(f *model.Facts, run *model.Run) *model.PullRequest {
	if f.Issue == nil {
		return f.PR
	}
	if ref, ok := RunPRRef(run); ok { // N, or owner/name#N
		e := &Eval{Facts: f, Issue: &issueSubject{Base: f}}
		if pr := e.PrOf(ref); pr != nil {
			return pr
		}
	}
	return &model.PullRequest{}
}

// HeadOf is the head of run's pull request: what an approval is given on. "" in an issue's
// run without a pull request.
func (e *Eval) HeadOf(run *model.Run) string {
	if pr := e.RunPR(run); pr != nil {
		return pr.HeadSHA
	}
	return ""
}

// MayHaveAuthoredRunPR reports whether login is, or may be, the author of the pull request
// of an issue's run: its author as read, or anyone when the run's pull request was not read
// (its author is not known). False in a pull request's run (its author is the subject's)
// and while the issue's run has no pull request.
func (e *Eval) MayHaveAuthoredRunPR(run *model.Run, login string) bool {
	if e.MayHaveAuthoredRunPRs(run, login) { // any of a multi-PR run's
		return true
	}
	if _, has := RunPRRef(run); e.Issue == nil || !has {
		return false
	}
	pr := e.RunPR(run)
	return pr == nil || strings.EqualFold(login, pr.Author)
}
