package core

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// The evaluator's answers about its subject, for the units that ask them through their own
// interfaces (authority, the ledger, settling, actions, the deadline table); what they say
// is package subject's.

// Scope is the subject of e and the facts it reads now.
func Scope(e *Eval) subject.Scope { return subject.Scope{Facts: e.Facts, Issue: e.Issue} }

// Kind is the kind of subject of run (see subject.KindOf).
func Kind(e *Eval, run *model.Run) subject.Kind {
	if e.Issue == nil || run == nil {
		return subject.KindOf(Scope(e), nil)
	}
	return subject.KindOf(Scope(e), e.Cfg.PipelineFor(run))
}

// RunPR is the pull request run's gates and merge read (subject.Kind's RunPR).
func (e *Eval) RunPR(run *model.Run) *model.PullRequest {
	return Scope(e).RunPR(run)
}

// OnRunPR makes pr, a pull request of an issue's run, the PR of e.Facts until the returned
// function is called.
func (e *Eval) OnRunPR(pr *model.PullRequest) func() {
	old := e.Facts
	f := *e.Issue.Base
	f.PR = pr
	e.Facts = &f
	return func() { e.Facts = old }
}

// SubjectView is f with the issue as its PR, as an evaluation of an issue sees it.
func SubjectView(f *model.Facts) *model.Facts {
	if is := subject.NewIssue(f); is != nil {
		return is.View
	}
	return f
}

// RunPRIn is run's pull request in facts f as PeopleNeeded reads them (f.PR is the subject:
// in an issue's evaluation, its view); an empty pull request when it has none.
func RunPRIn(f *model.Facts, run *model.Run) *model.PullRequest {
	if f.Issue == nil {
		return f.PR
	}
	s := subject.Scope{Facts: f, Issue: &subject.Issue{Base: f}}
	if pr := s.RunPR(run); pr != nil {
		return pr
	}
	return &model.PullRequest{}
}

// HeadOf is the head of run's pull request: what an approval is given on. "" in an issue's
// run without a pull request.
func (e *Eval) HeadOf(run *model.Run) string { return Scope(e).Head(run) }

// MayHaveAuthoredRunPR reports whether login is, or may be, the author of a pull request
// run would merge that is not the subject (subject.Kind's MayHaveAuthored).
func (e *Eval) MayHaveAuthoredRunPR(run *model.Run, login string) bool {
	return Kind(e, run).MayHaveAuthored(Scope(e), run, login)
}

// OtherRepo is the repository of e.Facts.PR when it is not the subject's, or "".
func (e *Eval) OtherRepo() string { return Scope(e).OtherRepo() }

// FollowDue: the run is evaluated on the facts just read; nothing else to do.
func (e *Eval) FollowDue(p *lang.Pipeline, run *model.Run, stage *lang.Stage, d model.Deadline) bool {
	e.Logf("run %s: the pull requests of other repositories are read again (%s)", run.ID, stage.ID)
	return false
}

// Rules are the rules of authority on the facts as this evaluation reads them now (the
// facts it reads change while it evaluates an issue's run on its pull request).
func (e *Eval) Rules() *authority.Rules {
	r := &authority.Rules{Cfg: e.Cfg, Facts: e.Facts, Now: e.Now, Subject: e}
	if e.Issue != nil {
		r.Issue = e.Issue.Issue
	}
	return r
}

// NoteHead records the head of run's pull request as seen now, and when the run first saw
// it after another (Run.HeadSince).
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

// ReviewedAnother says why the review stages of run, an issue's run, were not given on the
// pull request of the facts (e.Facts.PR): the run's pull request (context.pr_number) is
// another one, or it has none. The head SHA alone cannot tell: one commit can head two pull
// requests (against two bases, or in two repositories), and an approval of one is not an
// approval of the other. "" when they were given on it, and in a pull request's run (its
// review stages review its subject).
func (e *Eval) ReviewedAnother(run *model.Run) string {
	if e.Issue == nil || e.Facts.PR == nil {
		return ""
	}
	ref, ok := subject.RunPRRef(run)
	switch {
	case !ok:
		return fmt.Sprintf("run %s has no pull request; its reviews were not given on pull request #%d", run.ID, e.Facts.PR.Number)
	case Scope(e).PrOf(ref) != e.Facts.PR:
		return fmt.Sprintf("run %s reviewed %s, not this pull request (#%d)", run.ID, ref, e.Facts.PR.Number)
	}
	return ""
}

// LinkedFromBody says, when issue n is one the pull request links only through the closing
// keywords of its body (GitHub linked none), so; "" otherwise.
func (e *Eval) LinkedFromBody(n int) string {
	pr := e.Facts.PR
	if pr == nil || pr.LinkedFrom != model.LinkedFromBody || !slices.Contains(pr.LinkedIssues, n) {
		return ""
	}
	return "linked by a closing keyword in the body of " + subject.LinkNote(e.Facts)
}

// ActionDoneWhy is the history's reason for an action stage done: actionDone, and for a
// close_issue while the pull request's links come from its body, that they do.
func (e *Eval) ActionDoneWhy(stage *lang.Stage) string {
	why := actionDone(stage)
	if stage.Action != lang.ActionCloseIssue || e.Facts.PR == nil || e.Facts.PR.LinkedFrom != model.LinkedFromBody {
		return why
	}
	return why + "; the linked issues come from closing keywords in the body of " + subject.LinkNote(e.Facts)
}

// NotOn marks every review stage of l unmet (why) and drops its entries: they were given on
// another pull request than the one l is read for.
func NotOn(l *model.Ledger, why string) {
	l.Entries = l.Entries[:0]
	for i := range l.Stages {
		l.Stages[i].Met = false
		l.Stages[i].Why = l.Stages[i].Stage + ": " + why
	}
}
