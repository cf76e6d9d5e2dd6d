package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/parallel"
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

// NoPullRequestYet is what a gate or a merge of an issue run says while the run has no pull
// request.
const NoPullRequestYet = subject.NoPullRequestYet

func (k subjectKernel) OnPR(pr *model.PullRequest, ref model.PRRef) func() { return onPR(k.e, pr, ref) }

func (k subjectKernel) Step(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return stageTypes[stage.Type].step(k.e, p, run, stage)
}

func (k subjectKernel) Env(p *lang.Pipeline, run *model.Run) lang.Env {
	return scope.Env(scopeKernel{k.e}, p, run)
}

func (k subjectKernel) Hold(run *model.Run, stage *lang.Stage, why, who string) bool {
	return k.e.HoldAction(run, stage, why, who)
}

func (k subjectKernel) GuardBlocks(p *lang.Pipeline, run *model.Run, b *lang.Stage) string {
	plan := k.e.guard(p, run, b)
	if plan.back != nil {
		return fmt.Sprintf("the merge guard does not hold: %s", plan.why)
	}
	return plan.why
}

func (k subjectKernel) CancelBranches(p *lang.Pipeline, run *model.Run, par *lang.Stage, why string) {
	parallel.Cancel(k.e.context(p, run), run, par, why)
}

func (k subjectKernel) Escalate(run *model.Run, why string) { k.e.escalate(run, why) }

func (k subjectKernel) WaitMergeability(run *model.Run, sr *model.StageRun, what string) bool {
	return k.e.waitMergeability(run, sr, what)
}

// intentOnRunPR puts the run's pull request in place while an intent of a merge of an
// issue's run is reconciled; nil when there is nothing to put in place.
func intentOnRunPR(e *eval, run *model.Run, it model.Intent) func() {
	if e.Issue == nil || it.Kind != model.EffectMerge {
		return nil
	}
	if p := e.Cfg.PipelineFor(run); p != nil { // a merge with pr_number
		if stage := core.StageOrBranch(p, it.Stage); stage != nil && stage.Config.PR != nil {
			if pr, ref, _ := subject.Target(subjectKernel{e}, p, run, stage); pr != nil {
				return onPR(e, pr, ref)
			}
			return nil
		}
	}
	pr := e.RunPR(run)
	if pr == nil {
		return nil
	}
	return e.OnRunPR(pr)
}

// PRCheck is a check that may read another pull request than the run's own: PR is its `pr`
// template (nil: the run's pull request). It renders to N, owner/name#N, or "all": every
// pull request of context.prs.
type PRCheck interface {
	PR() *lang.Template
}

// LedgerCheck is implemented by checks that read the approvals ledger (pr_approvals_met):
// evaluated on another pull request of the run, they get that pull request's ledger.
type LedgerCheck interface {
	ReadsLedger() bool
}

func (k subjectKernel) Gate() (*lang.Pipeline, *model.Run, lang.Env, bool) {
	g := k.e.Gate
	if g == nil {
		return nil, nil, nil, false
	}
	return g.Pipeline, g.Run, g.Env(), true
}

func (k subjectKernel) LedgerOn(pr *model.PullRequest, p *lang.Pipeline, r *model.Run) *model.Ledger {
	old := k.e.Facts
	f := *old
	f.PR = pr
	k.e.Facts = &f
	defer func() { k.e.Facts = old }()
	return k.e.ledger(p, r)
}
