package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/actionplan"
	"github.com/org/pipeline-action/engine/lang"
)

// Runs of `scope: issue` pipelines. Their subject is an issue (Facts.Issue): they start on
// issues.* events, keep their state on the issue, and post their comments (an agent's
// comment dispatch, chat-op replies, comment actions) there. An agent's report with
// outputs.pr associates a pull request with the run (associate): context.pr_number is set
// when unset and context.prs gains it. From then on the run follows that pull request:
//
//   - its gates and its merge_pr stage evaluate against the run's pull request
//     (context.pr_number), as read in Facts.PRs — a gate reads that PR's reviews, checks and
//     labels, not the issue's; a gate or a merge while the run has no pull request waits,
//     saying "no pull request yet";
//   - the merge guard runs on that pull request's facts (its head, its gates), exactly as in
//     a pull request's own run, and merge_pr merges that pull request and no other;
//   - only a pull request of this repository whose head branch is in this repository (not a
//     fork) and that is open can be associated: an agent works with this repository's token,
//     and a report naming someone else's fork is refused, so that no report can bring a
//     stranger's pull request under the run's merge. What the gates require still holds on
//     the associated pull request's own facts.
//
// Inside the engine the issue is seen as the subject through a PullRequest value that
// carries only what an issue has (number, title, state, author, labels, comments, the
// action's posted markers, timeline): the code that speaks to the subject (comments,
// dispatches, chat-ops, labels) is the same for both. What needs a pull request — gates,
// the guard, merging — runs on the run's own pull request (OnRunPR), never on that view.

// NoPullRequestYet is what a gate or a merge of an issue run says while the run has no pull
// request.
const NoPullRequestYet = actionplan.NoPullRequestYet

// issueStage evaluates the stages of an issue's run that read its pull request: gates and
// merge_pr. done is false for every other stage, and in a pull request's run.
func (e *eval) issueStage(p *lang.Pipeline, run *model.Run, stage *lang.Stage) (moved, done bool) {
	if e.Issue == nil {
		return false, false
	}
	isMerge := stage.Type == lang.StageAction && stage.Action == lang.ActionMergePR
	if stage.Type != lang.StageGate && !isMerge {
		return false, false
	}
	if isMerge {
		return e.issueMerge(p, run, stage), true
	}
	pr := e.RunPR(run)
	if pr == nil && !gateNeedsPR(stage) {
		return stageTypes[lang.StageGate].step(e, p, run, stage), true // on the issue: its checks read the run alone
	}
	if pr == nil {
		why := NoPullRequestYet
		if ref, ok := subject.RunPRRef(run); ok {
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
	ref, _ := subject.RunPRRef(run)
	restore := onPR(e, pr, ref)
	defer restore()
	return stageTypes[lang.StageGate].step(e, p, run, stage), true
}

// gateNeedsPR reports whether a check of the gate stage reads a pull request (see PRFreeCheck).
func gateNeedsPR(stage *lang.Stage) bool {
	needs := func(c lang.Condition) bool {
		pc, ok := c.Eval.(PRFreeCheck)
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

// intentOnRunPR puts the run's pull request in place while an intent of a merge of an
// issue's run is reconciled; nil when there is nothing to put in place.
func (e *eval) intentOnRunPR(run *model.Run, it model.Intent) func() {
	if e.Issue == nil || it.Kind != model.EffectMerge {
		return nil
	}
	if p := e.Cfg.PipelineFor(run); p != nil { // a merge with pr_number
		if stage := core.StageOrBranch(p, it.Stage); stage != nil && stage.Config.PR != nil {
			if pr, ref, _ := e.mergeTarget(p, run, stage); pr != nil {
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
