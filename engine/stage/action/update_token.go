package action

import (
	"cmp"
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/stage"
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

// updateByActionsToken is why the run escalates instead of planning s's update_branch, when
// the action acts with GITHUB_TOKEN and the head is not known to be up to date; else "".
func updateByActionsToken(c stage.Context, s *lang.Stage) string {
	pr := c.Facts().PR
	if s.Action != lang.ActionUpdateBranch || !c.Facts().ActionsToken || c.IssueRun() || pr == nil ||
		pr.BehindBy != nil && *pr.BehindBy == 0 {
		return ""
	}
	return updateNeedsPerson(fmt.Sprintf("stage %q would bring #%d up to date with its base branch %q", s.ID, pr.Number, pr.BaseRef))
}

// behindWithActionsToken is why the run escalates when its merge stage s would update a
// head behind its base with GITHUB_TOKEN; else "".
func behindWithActionsToken(c stage.Context, s *lang.Stage) string {
	if !c.Facts().ActionsToken {
		return ""
	}
	pr := c.Facts().PR
	return updateNeedsPerson(fmt.Sprintf("the head of #%d is behind its base branch %q, which branch protection requires to be up to date; stage %q would update it (when_behind: %s)",
		pr.Number, pr.BaseRef, s.ID, cmp.Or(s.Config.WhenBehind, lang.WhenBehindUpdate)))
}
