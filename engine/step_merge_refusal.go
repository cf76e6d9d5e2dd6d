package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// What GitHub decides about a merge besides the pipeline: whether it has computed the pull
// request's mergeability yet, whether the head must first be brought up to date with its base
// (mergeStateStatus BEHIND under strict branch protection), and refusals only a person can lift
// (branch protection or repository settings the config does not meet), which escalate the run
// once instead of being tried again on every event.

// mergeWaits holds merge_pr's stage while GitHub cannot merge yet for a reason it will lift,
// or brings a head that is behind its base up to date (when_behind: update) or escalates
// (when_behind: escalate). It reports whether it held the stage, and whether the run moved.
func (e *eval) mergeWaits(run *model.Run, stage *lang.Stage) (held, moved bool) {
	pr := e.Facts.PR
	sr := run.Stages[stage.ID]
	if pr.Mergeable == model.Unknown || pr.MergeState == model.MergeStateUnknown {
		// A merge now would be refused (405) or, worse, race GitHub's computation.
		if e.waitMergeability(run, sr, fmt.Sprintf("#%d", pr.Number)) {
			return true, false
		}
		return true, e.HoldAction(run, stage, model.MergeUnknownWhy, model.MergeUnknownWho)
	}
	core.MergeabilityKnown(sr)
	switch {
	case pr.MergeState != model.MergeStateBehind:
		return false, false
	case stage.Config.WhenBehind == lang.WhenBehindEscalate:
		e.escalate(run, fmt.Sprintf("the head of #%d is behind its base branch %q, which branch protection requires to be up to date; "+
			"update the branch (or set when_behind: update on stage %q), then /pipeline retry", pr.Number, pr.BaseRef, stage.ID))
		return true, false
	case e.behindWithActionsToken(run, stage):
		return true, false
	}
	key := fmt.Sprintf("%s/%s/%d/%s/%s", run.ID, stage.ID, sr.Attempt, model.RuleWhenBehind, model.Short(pr.HeadSHA))
	if !slices.Contains(run.Applied, key) {
		// Until GitHub accepts it (settleUpdateBehind records it): the update moves the head,
		// and the run's gates check the new one. Asked again meanwhile, GitHub answers that
		// there is nothing to merge, or that the head moved.
		e.Effects = append(e.Effects, model.Effect{Key: key, Run: run.ID, Stage: stage.ID, Kind: model.EffectUpdateBranch,
			Number: pr.Number, SHA: pr.HeadSHA, Repo: e.OtherRepo()})
	}
	return true, e.HoldAction(run, stage, fmt.Sprintf("the head is behind its base branch %q; it is being brought up to date", pr.BaseRef), model.UpdateBranchWho)
}

// settleUpdateBehind records the outcome of merge_pr's update of a head behind its base. A
// refusal that trying again cannot fix escalates the run; another is tried again on the next
// head (or by /pipeline retry).
func (e *eval) settleUpdateBehind(o model.Outcome) bool {
	if !strings.Contains(o.Key, "/"+model.RuleWhenBehind+"/") {
		return false
	}
	for _, run := range e.St.Runs {
		if !strings.HasPrefix(o.Key, run.ID+"/") || run.Status.Final() || run.Status == model.RunEscalated {
			continue
		}
		if o.Err == "" {
			run.Applied = model.AppendOnce(run.Applied, o.Key)
			continue
		}
		if o.Permanent || o.Escalate {
			e.escalate(run, fmt.Sprintf("the head is behind its base branch and could not be brought up to date: %s", o.Err))
		} else {
			e.Logf("run %s: updating the branch: %s; trying again on the next event", run.ID, o.Err)
		}
	}
	return true
}

// mergeRefused escalates run once: GitHub refused the merge of stage (or branch) for a
// setting of the repository the config does not meet, and the same merge would be refused on
// every event. /pipeline retry tries it again once the setting or the config is fixed.
func (e *eval) mergeRefused(run *model.Run, stage *lang.Stage, o model.Outcome) {
	if sr := run.Stages[stage.ID]; sr != nil {
		sr.Status, sr.Message = model.StageFailed, o.Err
	}
	e.escalate(run, o.Err)
}
