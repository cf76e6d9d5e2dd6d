package core

import (
	"github.com/org/pipeline-action/engine/model"
)

// PlanUpdateBranch is the update_branch action: nothing to do when the facts read show the
// head up to date with its base; otherwise GitHub is asked (a head already up to date is
// done: the shell counts GitHub's "no new commits" as success).
func (e *Eval) PlanUpdateBranch(eff model.Effect) PlannedAction {
	pr := e.Facts.PR
	if e.Issue != nil || pr == nil {
		return PlannedAction{Err: "update_branch updates a pull request's branch; this run's subject is an issue"}
	}
	if pr.BehindBy != nil && *pr.BehindBy == 0 {
		return PlannedAction{Done: model.UpdateBranchUpToDateDone}
	}
	eff.Kind, eff.SHA = model.EffectUpdateBranch, pr.HeadSHA
	return PlannedAction{Eff: eff}
}
