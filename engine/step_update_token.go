package engine

import (
	"cmp"
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// GitHub starts no workflow for a commit a workflow's GITHUB_TOKEN pushes, and bringing a
// pull request's branch up to date pushes a merge commit to it: with that token the update's
// head never gets CI, and a run waiting for CI there waits forever. So with it the action
// does not update a branch (merge_pr's when_behind: update, the update_branch action): it
// escalates once, saying how to go on.

// updateNeedsPerson is why the action leaves a branch update to a person, after what
// (why the branch would be updated).
func updateNeedsPerson(what string) string {
	return what + ", but the action runs with the workflow's GITHUB_TOKEN, and GitHub starts no workflow for a commit that token pushes: " +
		"CI would never run on the updated head. Update the branch yourself (\"Update branch\" on the pull request), or give the action " +
		"a GitHub App's token (the `token` input, docs/tokens.md) so that it updates branches itself; then /pipeline retry"
}

// updateByActionsToken escalates run instead of planning stage's update_branch when the
// action acts with GITHUB_TOKEN and the head is not known to be up to date. It reports
// whether it did.
func (e *eval) updateByActionsToken(run *model.Run, stage *lang.Stage) bool {
	pr := e.Facts.PR
	if stage.Action != lang.ActionUpdateBranch || !e.Facts.ActionsToken || e.Issue != nil || pr == nil ||
		pr.BehindBy != nil && *pr.BehindBy == 0 {
		return false
	}
	e.escalate(run, updateNeedsPerson(fmt.Sprintf("stage %q would bring #%d up to date with its base branch %q", stage.ID, pr.Number, pr.BaseRef)))
	return true
}

// behindWithActionsToken escalates run when its merge stage would update a head behind its
// base with GITHUB_TOKEN. It reports whether it did.
func (e *eval) behindWithActionsToken(run *model.Run, stage *lang.Stage) bool {
	if !e.Facts.ActionsToken {
		return false
	}
	pr := e.Facts.PR
	e.escalate(run, updateNeedsPerson(fmt.Sprintf("the head of #%d is behind its base branch %q, which branch protection requires to be up to date; stage %q would update it (when_behind: %s)",
		pr.Number, pr.BaseRef, stage.ID, cmp.Or(stage.Config.WhenBehind, lang.WhenBehindUpdate))))
	return true
}
