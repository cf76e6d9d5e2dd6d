package engine

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// The action stage: the action it performs (a merge, labels, a comment), or the list of
// actions it performs in order.

func (e *eval) action(p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	pr := e.Facts.PR
	key := fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, sr.Attempt, stage.Action)
	eff := model.Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: model.EffectKind(stage.Action), Number: pr.Number, Repo: e.OtherRepo()}
	action := stage.Action
	if core.NewActionStage(stage) {
		moved, asked, planned := e.stageActionPlanned(p, run, stage, eff)
		if !asked {
			return moved
		}
		eff, action = planned, ""
	}
	switch action {
	case lang.ActionMergePR:
		if moved, done := e.planMerge(p, run, stage, &eff); done {
			return moved
		}
	case lang.ActionAddLabel:
		for _, l := range stage.Config.Labels {
			if !pr.HasLabel(l) && !core.HasLabel(eff.Labels, l) {
				eff.Labels = append(eff.Labels, l)
			}
		}
		if len(eff.Labels) == 0 {
			e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, "labels present")
			return true
		}
	case lang.ActionRemoveLabel:
		for _, l := range stage.Config.Labels {
			// Remove the label by its name on the PR (`WIP` for `wip`).
			if on, ok := pr.Label(l); ok && !core.HasLabel(eff.Labels, on) {
				eff.Labels = append(eff.Labels, on)
			}
		}
		if len(eff.Labels) == 0 {
			e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, "labels absent")
			return true
		}
	case lang.ActionComment:
		if slices.Contains(run.Applied, key) || slices.Contains(pr.Posted, key) {
			e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, "comment posted")
			return true
		}
		eff.Body = stage.Config.Body
	}
	if sr.Status == model.StageRetrying && e.Settling() {
		run.Status = model.RunWaiting
		return false
	}
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	if eff.Kind.WriteAhead() || (eff.Kind == model.EffectDispatch && agent.DispatchWriteAhead(eff.Dispatch)) { // notifying an agent
		e.Intend(run, sr, &eff)
	}
	e.Effects = append(e.Effects, eff)
	return false
}

// planMerge completes eff, the merge of a merge_pr stage, unless the stage moves or waits
// instead: then done is set and moved is action's result.
func (e *eval) planMerge(p *lang.Pipeline, run *model.Run, stage *lang.Stage, eff *model.Effect) (moved, done bool) {
	pr := e.Facts.PR
	if pr.State == model.PRMerged {
		e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, "the pull request is merged")
		return true, true
	}
	if pr.State == model.PRClosed {
		return e.actionFailed(run, stage, "the pull request was closed without merging"), true
	}
	switch plan := e.guardChain(p, run, stage); {
	case plan.back != nil:
		e.goBack(p, run, stage.ID, plan)
		return true, true
	case plan.why != "":
		return e.HoldAction(run, stage, plan.why, "a maintainer (fix the pipeline)"), true
	}
	switch failed := model.FailedChecks(pr); {
	case pr.Draft:
		return e.HoldAction(run, stage, "the pull request is a draft", "its author (mark it ready for review)"), true
	case pr.Mergeable == model.Conflicting && stage.OnConflict != nil:
		return e.mergeOnConflict(p, run, stage), true
	case failed != "" && stage.OnCIFailure != nil:
		return e.mergeOnCIFailure(p, run, stage, failed), true
	case pr.Mergeable == model.Conflicting:
		return e.HoldAction(run, stage, "the pull request has conflicts with its base branch", "its author (resolve the conflicts)"), true
	}
	if held, moved := e.mergeWaits(run, stage); held {
		return moved, true
	}
	// Merge exactly the head the gates hold on: if it moves before GitHub merges,
	// GitHub refuses (409).
	eff.SHA, eff.Method = pr.HeadSHA, stage.Config.Method
	if stage.Config.DeleteBranch {
		if why := core.KeepHeadBranch(e.Facts); why != "" {
			e.Logf("run %s: %s: the head branch %q is kept after the merge: %s", run.ID, stage.ID, pr.HeadRef, why)
		} else {
			eff.Delete, eff.HeadRef, eff.HeadRepo = true, pr.HeadRef, pr.HeadRepo
		}
	}
	return false, false
}

func (e *eval) actionFailed(run *model.Run, stage *lang.Stage, why string) bool {
	run.Stages[stage.ID].Message = why
	if stage.OnFailure != "" || e.IsBranch(run, stage) {
		e.leave(run, stage, model.StageFailed, stage.OnFailure, why)
		return true
	}
	run.Stages[stage.ID].Status = model.StageFailed
	e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("stage %q failed: %s", stage.ID, why))
	return false
}

// actionType performs its action (merge, label, comment, …) and moves on.
type actionType struct {
	noDeadlines
	unguarded
	noAnswers
}

func (actionType) worker(s *lang.Stage) (kind, name string) { return "action", s.Action }

func (actionType) step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return e.action(p, run, stage)
}

func (actionType) branch(e *eval, p *lang.Pipeline, run *model.Run, b *lang.Stage) bool {
	if _, done := e.branchMerge(p, run, b); !done {
		e.action(p, run, b)
	}
	return true
}
