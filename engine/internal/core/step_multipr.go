package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// PrOf is the pull request ref names in the facts read (nil when it was not read).
func (e *Eval) PrOf(ref model.PRRef) *model.PullRequest {
	base := e.Facts
	if e.Issue != nil {
		base = e.Issue.Base
	}
	if ref.Own(base.Repo) {
		if e.Issue == nil {
			if base.PR != nil && base.PR.Number == ref.Number {
				return base.PR
			}
			return nil
		}
		return base.PRs[ref.Number]
	}
	return base.Others[ref.Key()]
}

// RunPRRef is run's context.pr_number as a reference, and whether it has one.
func RunPRRef(run *model.Run) (model.PRRef, bool) {
	if run == nil {
		return model.PRRef{}, false
	}
	return model.ParsePRRef(run.Context["pr_number"])
}

// OnPR makes pr the PR of e.facts (and its repository the facts' repository) until the
// returned function is called.
func (e *Eval) OnPR(pr *model.PullRequest, ref model.PRRef) func() {
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

// AgentRepo is the repository an agent stage's pull request will be in (`config.repo`), ""
// for the subject's. It must be written literally: a templated repo could be chosen by what
// an issue or a report says, and so could the repository whose pull request the run merges.
func AgentRepo(stage *lang.Stage) (repo string, templated bool) {
	if stage == nil {
		return "", false
	}
	for _, kv := range stage.Values {
		if kv.Key == "repo" {
			return strings.TrimSpace(kv.Value.Scalar), kv.Value.Template != nil
		}
	}
	return "", false
}

// RefuseRef says why pull request ref cannot be associated with a multi-PR run, or "".
func (e *Eval) RefuseRef(ref model.PRRef) string {
	pr := e.PrOf(ref)
	switch {
	case pr == nil:
		return fmt.Sprintf("%s is not a pull request (or it was not read)", ref)
	case pr.CrossRepo || !strings.EqualFold(pr.HeadRepo, ref.Repo):
		return fmt.Sprintf("the head branch of %s is not a branch of %s (a fork's pull request is not associated)", ref, ref.Repo)
	case pr.State != model.PROpen:
		return fmt.Sprintf("%s is %s", ref, pr.State)
	}
	return ""
}

// RunHasPR reports whether ref is one of run's pull requests (context.prs): merge_pr merges
// nothing else, whatever a template renders.
func (e *Eval) RunHasPR(run *model.Run, ref model.PRRef) bool {
	own := e.Facts.Repo
	if e.Issue != nil {
		own = e.Issue.Base.Repo
	}
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

// MergeBranches are the merge_pr branches of parallel stage par.
func MergeBranches(par *lang.Stage) []*lang.Stage {
	var out []*lang.Stage
	for _, b := range par.Branches {
		if b.Type == lang.StageAction && b.Action == lang.ActionMergePR {
			out = append(out, b)
		}
	}
	return out
}

// GuardTarget is the stage the guard looks for a path to when merge is a branch: its
// parallel stage.
func GuardTarget(p *lang.Pipeline, merge *lang.Stage) *lang.Stage {
	if p.Stage(merge.ID) != nil {
		return merge
	}
	for _, s := range p.Stages {
		if BranchOf(s, merge.ID) != nil {
			return s
		}
	}
	return merge
}

// OtherRepo is the repository of e.facts.PR when it is not the subject's (a pull request
// of another repository put in place by OnPR), or "".
func (e *Eval) OtherRepo() string {
	if e.Issue == nil || strings.EqualFold(e.Facts.Repo, e.Issue.Base.Repo) {
		return ""
	}
	return e.Facts.Repo
}

// FollowDue: the run is evaluated on the facts just read; nothing else to do.
func (e *Eval) FollowDue(p *lang.Pipeline, run *model.Run, stage *lang.Stage, d model.Deadline) bool {
	e.Logf("run %s: the pull requests of other repositories are read again (%s)", run.ID, stage.ID)
	return false
}

// FollowOthers arms DeadlineFollow on the run's current stage when a multi-PR run waits at
// stage, a gate or a merge, and has a pull request in another repository.
func (e *Eval) FollowOthers(p *lang.Pipeline, run *model.Run) {
	if e.Issue == nil || !p.IsMultiPR() || run.Status != model.RunWaiting {
		return
	}
	sr := run.Stages[run.Stage]
	stage := p.Stage(run.Stage)
	if sr == nil || stage == nil {
		return
	}
	waitsOnPRs := stage.Type == lang.StageGate || (stage.Type == lang.StageAction && stage.Action == lang.ActionMergePR) || len(MergeBranches(stage)) > 0
	if !waitsOnPRs {
		return
	}
	other := false
	for _, ref := range model.RunPRRefs(run, e.Issue.Base.Repo) {
		other = other || !ref.Own(e.Issue.Base.Repo)
	}
	if !other {
		return
	}
	for _, d := range sr.Deadlines {
		if d.Kind == model.DeadlineFollow {
			return
		}
	}
	sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineFollow, At: e.Now.Add(model.FollowInterval)})
}

// MayHaveAuthoredRunPRs reports whether login is, or may be, the author of any pull request
// of a multi-PR run (one not read: its author is not known): a human stage's approval is
// for all of them, so none of their authors approves it.
func (e *Eval) MayHaveAuthoredRunPRs(run *model.Run, login string) bool {
	if e.Issue == nil {
		return false
	}
	p := e.Cfg.PipelineFor(run)
	if !p.IsMultiPR() {
		return false
	}
	for _, ref := range model.RunPRRefs(run, e.Issue.Base.Repo) {
		pr := e.PrOf(ref)
		if pr == nil || strings.EqualFold(login, pr.Author) {
			return true
		}
	}
	return false
}
