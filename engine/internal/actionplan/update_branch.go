package actionplan

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"
)

// planUpdateBranch is the update_branch action: nothing to do when the facts read show the
// head up to date with its base; otherwise GitHub is asked (a head already up to date is
// done: the shell counts GitHub's "no new commits" as success).
func planUpdateBranch(e *core.Eval, eff model.Effect) core.PlannedAction {
	pr := e.Facts.PR
	if e.Issue != nil || pr == nil {
		return core.PlannedAction{Err: "update_branch updates a pull request's branch; this run's subject is an issue"}
	}
	if pr.BehindBy != nil && *pr.BehindBy == 0 {
		return core.PlannedAction{Done: model.UpdateBranchUpToDateDone}
	}
	eff.Kind, eff.SHA = model.EffectUpdateBranch, pr.HeadSHA
	return core.PlannedAction{Eff: eff}
}
