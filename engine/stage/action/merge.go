package action

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// planMerge completes eff, the merge of a merge_pr stage, unless the stage moves or waits
// instead: then done is set and dec says how. The kernel's merge guard goes first.
func planMerge(c stage.Context, run *model.Run, s *lang.Stage, eff *model.Effect) (dec stage.Decision, done bool) {
	pr := c.Facts().PR
	if pr.State == model.PRMerged {
		return stage.Leave(model.StageSucceeded, s.OnSuccess, "the pull request is merged"), true
	}
	if pr.State == model.PRClosed {
		return fail(run, s, "the pull request was closed without merging"), true
	}
	if dec, waits := inQueue(c, run, s); waits {
		return dec, true
	}
	switch why, back := c.GuardMerge(s); {
	case back:
		return stage.Back(), true
	case why != "":
		return stage.Hold(why, "a maintainer (fix the pipeline)"), true
	}
	switch failed := model.FailedChecks(pr); {
	case pr.Draft:
		return stage.Hold("the pull request is a draft", "its author (mark it ready for review)"), true
	case pr.Mergeable == model.Conflicting && s.OnConflict != nil:
		return onConflict(c, s), true
	case failed != "" && s.OnCIFailure != nil:
		c.RuleEffects(s, s.OnCIFailure, model.RuleOnCIFailure)
		return stage.Loop(s.OnCIFailure, model.RuleOnCIFailure, "CI failed on "+model.Short(pr.HeadSHA)+": "+failed, "its author (fix the failing checks)"), true
	case pr.Mergeable == model.Conflicting:
		return stage.Hold("the pull request has conflicts with its base branch", "its author (resolve the conflicts)"), true
	}
	if dec, held := mergeWaits(c, run, s); held {
		return dec, true
	}
	// Merge exactly the head the gates hold on: if it moves before GitHub merges,
	// GitHub refuses (409).
	eff.SHA, eff.Method = pr.HeadSHA, s.Config.Method
	if why := commitText(c, s, eff); why != "" {
		return fail(run, s, why), true
	}
	if s.Config.DeleteBranch {
		if why := keepHeadBranch(c.Facts()); why != "" {
			c.Logf("run %s: %s: the head branch %q is kept after the merge: %s", run.ID, s.ID, pr.HeadRef, why)
		} else {
			eff.Delete, eff.HeadRef, eff.HeadRepo = true, pr.HeadRef, pr.HeadRepo
		}
	}
	return stage.Stay(), false
}

// onConflict applies merge_pr's on_conflict to a pull request in conflict with its base:
// notify and label, then go to `then` (or its target), else keep waiting for the conflicts
// to be resolved.
func onConflict(c stage.Context, s *lang.Stage) stage.Decision {
	rule := s.OnConflict
	c.RuleEffects(s, rule, model.RuleOnConflict)
	const why = "the pull request has conflicts with its base branch"
	if target := cmp.Or(rule.Then, rule.Goto); target != "" {
		return stage.Leave(model.StageFailed, target, why)
	}
	return stage.Hold(why, "its author (resolve the conflicts)")
}

// What GitHub decides about a merge besides the pipeline: whether it has computed the pull
// request's mergeability yet, whether the head must first be brought up to date with its base
// (mergeStateStatus BEHIND under strict branch protection), and refusals only a person can lift
// (branch protection or repository settings the config does not meet), which escalate the run
// once instead of being tried again on every event.

// mergeWaits holds merge_pr's stage while GitHub cannot merge yet for a reason it will lift,
// or brings a head that is behind its base up to date (when_behind: update) or escalates
// (when_behind: escalate). It reports whether it held the stage, and dec how.
func mergeWaits(c stage.Context, run *model.Run, s *lang.Stage) (dec stage.Decision, held bool) {
	pr := c.Facts().PR
	sr := run.Stages[s.ID]
	if pr.Mergeable == model.Unknown || pr.MergeState == model.MergeStateUnknown {
		// A merge now would be refused (405) or, worse, race GitHub's computation.
		if why := c.MergeabilityPoll(sr, fmt.Sprintf("#%d", pr.Number)); why != "" {
			return stage.Escalate(why), true
		}
		return stage.Hold(model.MergeUnknownWhy, model.MergeUnknownWho), true
	}
	sr.DropDeadlines(model.DeadlineMergeability) // GitHub has answered
	switch {
	case pr.MergeState != model.MergeStateBehind:
		return stage.Stay(), false
	case s.Config.WhenBehind == lang.WhenBehindEscalate:
		return stage.Escalate(fmt.Sprintf("the head of #%d is behind its base branch %q, which branch protection requires to be up to date; "+
			"update the branch (or set when_behind: update on stage %q), then /pipeline retry", pr.Number, pr.BaseRef, s.ID)), true
	}
	if why := behindWithActionsToken(c, s); why != "" {
		return stage.Escalate(why), true
	}
	key := fmt.Sprintf("%s/%s/%d/%s/%s", run.ID, s.ID, sr.Attempt, model.RuleWhenBehind, model.Short(pr.HeadSHA))
	if !slices.Contains(run.Applied, key) {
		// Until GitHub accepts it (the kernel records its outcome): the update moves the
		// head, and the run's gates check the new one. Asked again meanwhile, GitHub
		// answers that there is nothing to merge, or that the head moved.
		c.Emit(model.Effect{Key: key, Run: run.ID, Stage: s.ID, Kind: model.EffectUpdateBranch,
			Number: pr.Number, SHA: pr.HeadSHA, Repo: c.OtherRepo(), Method: s.Config.UpdateMethod})
	}
	return stage.Hold(fmt.Sprintf("the head is behind its base branch %q; it is being brought up to date", pr.BaseRef), model.UpdateBranchWho), true
}

// keepHeadBranch says why delete_branch must not delete the PR's head branch, or "". Only a
// branch of the repository itself is deleted: a fork's branch is not the action's to delete, and
// deleting heads/<name> here would delete this repository's branch of the same name. The
// default branch is never deleted (GitHub refuses anyway).
func keepHeadBranch(f *model.Facts) string {
	pr := f.PR
	switch {
	case pr.HeadRef == "":
		return "its name is unknown"
	case pr.HeadRepo == "":
		return "GitHub does not say which repository it lives in (its fork was deleted)"
	case pr.CrossRepo:
		return fmt.Sprintf("it is a branch of the fork %s, not of %s", pr.HeadRepo, f.Repo)
	case !strings.EqualFold(pr.HeadRepo, f.Repo):
		return fmt.Sprintf("it is a branch of %s, not of %s", pr.HeadRepo, f.Repo)
	case pr.HeadRef == f.DefaultBranch:
		return "it is the default branch of " + f.Repo
	}
	return ""
}
