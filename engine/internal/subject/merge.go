package subject

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// The gates and merges of an issue's or a multi-PR run read the run's pull request
// (context.pr_number), or the one a merge's `pr_number` names, as read in the facts: a gate
// reads that pull request's reviews, checks and labels, not the issue's; a gate or a merge
// while the run has no pull request waits, saying "no pull request yet". The merge guard
// runs on that pull request's facts, exactly as in a pull request's own run, and merge_pr
// merges that pull request and no other.
//
// A parallel stage whose branches merge (merge-all) merges all of its pull requests or none:
// before any merge it checks that every one is open (or merged already), not a draft,
// mergeable, and that the guard holds for it; if one is not, it merges none and escalates
// saying which and why. A merge GitHub refuses once another went in cannot be undone: the
// run escalates saying which pull requests are merged and which are not.

// NoPullRequestYet is what a gate or a merge of an issue run says while the run has no pull
// request.
const NoPullRequestYet = "no pull request yet: the run has no pull request to read (an agent's report with outputs.pr associates one)"

// StageKernel is the evaluator as the gates and merges of issue and multi-PR runs see it.
type StageKernel interface {
	Kernel
	// OnPR makes pr (named ref) the pull request of the facts, and its repository theirs,
	// until the returned function is called.
	OnPR(pr *model.PullRequest, ref model.PRRef) func()
	// Step evaluates stage of run as its stage type does, on the facts in place.
	Step(p *lang.Pipeline, run *model.Run, stage *lang.Stage) (moved bool)
	// Env is what run's templates read.
	Env(p *lang.Pipeline, run *model.Run) lang.Env
	// Hold keeps action stage of run waiting: why, and on whom.
	Hold(run *model.Run, stage *lang.Stage, why, who string) (moved bool)
	// GuardBlocks says why the merge guard holds merge branch b of run back on the facts in
	// place, or "".
	GuardBlocks(p *lang.Pipeline, run *model.Run, b *lang.Stage) string
	// CancelBranches cancels the branches of parallel stage par still going.
	CancelBranches(p *lang.Pipeline, run *model.Run, par *lang.Stage, why string)
	// Escalate hands run to a person, saying why.
	Escalate(run *model.Run, why string)
	// WaitMergeability keeps sr waiting for GitHub's mergeability of what; true when the
	// run escalated instead.
	WaitMergeability(run *model.Run, sr *model.StageRun, what string) bool
}

// prFree is a check that may read no pull request (NeedsPR false).
type prFree interface{ NeedsPR() bool }

// Stage evaluates the stages of an issue's run that read its pull request: gates and
// merge_pr. done is false for every other stage, and in a pull request's run.
func Stage(k StageKernel, p *lang.Pipeline, run *model.Run, stage *lang.Stage) (moved, done bool) {
	s := k.Scope()
	if s.Issue == nil {
		return false, false
	}
	isMerge := stage.Type == lang.StageAction && stage.Action == lang.ActionMergePR
	if stage.Type != lang.StageGate && !isMerge {
		return false, false
	}
	if isMerge {
		return Merge(k, p, run, stage), true
	}
	pr := s.RunPR(run)
	if pr == nil && !gateNeedsPR(stage) {
		return k.Step(p, run, stage), true // on the issue: its checks read the run alone
	}
	if pr == nil {
		why := NoPullRequestYet
		if ref, ok := RunPRRef(run); ok {
			why = fmt.Sprintf("pull request %s was not read", ref)
		} else if strings.HasPrefix(run.Message, "outputs.pr ") {
			why += "; " + run.Message // a refused association says why
		}
		sr := run.Stages[stage.ID]
		sr.Results = []model.GateResult{{Check: "pull_request", Status: model.GatePending, Message: why, Who: "the agent that opens the pull request"}}
		sr.Status = model.StageWaiting
		run.Status = model.RunWaiting
		return false, true
	}
	ref, _ := RunPRRef(run)
	restore := k.OnPR(pr, ref)
	defer restore()
	return k.Step(p, run, stage), true
}

// gateNeedsPR reports whether a check of the gate stage reads a pull request.
func gateNeedsPR(stage *lang.Stage) bool {
	needs := func(c lang.Condition) bool {
		pc, ok := c.Eval.(prFree)
		return !ok || pc.NeedsPR()
	}
	for _, c := range stage.Conditions {
		if needs(c) {
			return true
		}
	}
	for _, group := range stage.AnyOf {
		for _, c := range group {
			if needs(c) {
				return true
			}
		}
	}
	return false
}

// Target is the pull request merge_pr stage of run merges: its `pr_number` rendered, or the
// run's own. why says why there is none to merge.
func Target(k StageKernel, p *lang.Pipeline, run *model.Run, stage *lang.Stage) (pr *model.PullRequest, ref model.PRRef, why string) {
	s := k.Scope()
	if stage.Config.PR == nil {
		if r, ok := RunPRRef(run); ok {
			ref = r
		}
		return s.RunPR(run), ref, ""
	}
	text, err := stage.Config.PR.Render(k.Env(p, run))
	if err != nil {
		return nil, ref, fmt.Sprintf("pr_number of stage %q does not render: %v", stage.ID, err)
	}
	ref, ok := model.ParsePRRef(text)
	if !ok {
		if strings.TrimSpace(text) == "" || text == "<nil>" {
			return nil, ref, NoPullRequestYet
		}
		return nil, ref, fmt.Sprintf("pr_number of stage %q is %q, not a pull request (N or owner/name#N)", stage.ID, text)
	}
	if !s.RunHasPR(run, ref) {
		return nil, ref, fmt.Sprintf("%s is not a pull request of the run (context.prs); it is not merged", ref)
	}
	if pr = s.PrOf(ref); pr == nil {
		return nil, ref, fmt.Sprintf("pull request %s was not read", ref)
	}
	return pr, ref, ""
}

// Merge evaluates a merge_pr stage (or branch) of an issue's or a multi-PR run.
func Merge(k StageKernel, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	pr, ref, why := Target(k, p, run, stage)
	if pr == nil {
		if why == "" {
			why = NoPullRequestYet
			if strings.HasPrefix(run.Message, "outputs.pr ") {
				why += "; " + run.Message
			}
		}
		return k.Hold(run, stage, why, "the agent that opens the pull request")
	}
	restore := k.OnPR(pr, ref)
	defer restore()
	return k.Step(p, run, stage)
}

// BranchMerge evaluates a merge_pr branch of a parallel stage: in an issue's or a multi-PR
// run it merges the pull request its pr_number names (Merge). done is false for other
// branches.
func BranchMerge(k StageKernel, p *lang.Pipeline, run *model.Run, b *lang.Stage) (moved, done bool) {
	if b.Type != lang.StageAction || b.Action != lang.ActionMergePR {
		return false, false
	}
	if k.Scope().Issue == nil {
		run.Stages[b.ID].Status = model.StageFailed
		// Only a sub-pipeline run on a pull request gets here: validate refuses it elsewhere.
		k.Finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("merge_pr as a branch (branch %q at %s) in a pull request's run: a branch merges one of an issue's or multi-PR run's pull requests; merge a pull request's own change after the join", b.ID, b.Pos))
		return false, true
	}
	return Merge(k, p, run, b), true
}
