package engine

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// subjectKernel is the evaluator as the subject kinds (package subject) see it.
type subjectKernel struct{ e *eval }

func (k subjectKernel) Scope() subject.Scope { return core.Scope(k.e.Eval) }

func (k subjectKernel) Logf(format string, args ...any) { k.e.Logf(format, args...) }

func (k subjectKernel) Runs() []*model.Run { return k.e.St.Runs }

func (k subjectKernel) Pipeline(run *model.Run) *lang.Pipeline { return k.e.Cfg.PipelineFor(run) }

func (k subjectKernel) MergedByRun(p *lang.Pipeline, run *model.Run) bool {
	return k.e.ownMerge(p, run) != nil || k.e.childMerged(run)
}

func (k subjectKernel) Finish(run *model.Run, status model.RunStatus, target, why string) {
	k.e.finish(run, status, target, why)
}

// kindOf is the kind of subject of the runs of p in e (of the subject itself with p nil).
func kindOf(e *eval, p *lang.Pipeline) subject.Kind { return subject.KindOf(core.Scope(e.Eval), p) }

// issueView makes an evaluation of an issue read the facts with the issue as their PR.
func issueView(e *eval) {
	if is := subject.NewIssue(e.Facts); is != nil {
		e.Issue, e.Facts = is, is.View
	}
}

// associate applies outputs.pr of an accepted report of stage of run of p, as the kind of
// its subject says.
func associate(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage, outputs map[string]any) {
	kindOf(e, p).Associate(subjectKernel{e}, stage, run, outputs)
}

// closedSubject ends the runs a closed subject ends, whatever events were lost.
func closedSubject(e *eval) { kindOf(e, nil).Closed(subjectKernel{e}) }

// onPR makes pr (named ref) the PR of e.Facts, and its repository the facts' repository,
// until the returned function is called.
func onPR(e *eval, pr *model.PullRequest, ref model.PRRef) func() {
	old := e.Facts
	base := e.Facts
	if e.Issue != nil {
		base = e.Issue.Base
	}
	f := *base
	f.PR = pr
	if !ref.Own(base.Repo) {
		f.Repo = ref.Repo
	}
	e.Facts = &f
	return func() { e.Facts = old }
}
