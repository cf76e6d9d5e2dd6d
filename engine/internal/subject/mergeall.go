package subject

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// MergeAll checks, before a parallel stage with merge branches merges anything, that every
// one of its pull requests can be merged now. stop: the run does not go on to the branches
// (it waits, or escalated); moved: it escalated.
func MergeAll(k StageKernel, p *lang.Pipeline, run *model.Run, par *lang.Stage) (stop, moved bool) {
	merges := MergeBranches(par)
	if len(merges) == 0 || k.Scope().Issue == nil {
		return false, false
	}
	var t mergeTally
	for _, b := range merges {
		tallyMerge(k, p, run, b, &t)
	}
	sr := run.Stages[par.ID]
	switch {
	case len(t.blocked) > 0 && len(t.inFlight) > 0:
		// No other merge is asked for; the outcome of those in flight decides what to say.
		sr.Status = model.StageWaiting
		sr.Results = []model.GateResult{{Check: "mergeable", Status: model.GatePending, Who: "GitHub",
			Message: fmt.Sprintf("the merge of %s is in flight; %s", strings.Join(t.inFlight, ", "), strings.Join(t.blocked, "; "))}}
		run.Status = model.RunWaiting
		return true, false
	case len(t.blocked) > 0 && len(t.merged) == 0:
		why := fmt.Sprintf("stage %q merges all of its pull requests or none; none is merged: %s", par.ID, strings.Join(t.blocked, "; "))
		k.CancelBranches(p, run, par, "none is merged")
		sr.Message = why
		k.Escalate(run, why)
		return true, true
	case len(t.blocked) > 0:
		why := fmt.Sprintf("stage %q merges all of its pull requests or none, and a merge went in before another failed: merged %s; not merged %s: %s",
			par.ID, strings.Join(t.merged, ", "), strings.Join(t.notMerged, ", "), strings.Join(t.blocked, "; "))
		k.CancelBranches(p, run, par, "the merges are incomplete")
		sr.Message = why
		k.Escalate(run, why)
		return true, true
	case len(t.waiting) > 0 && len(t.merged) == 0:
		if k.WaitMergeability(run, sr, fmt.Sprintf("every pull request of stage %q", par.ID)) {
			return true, true
		}
		sr.Status = model.StageWaiting
		sr.Results = []model.GateResult{{Check: "mergeable", Status: model.GatePending, Message: strings.Join(t.waiting, "; "), Who: "GitHub"}}
		run.Status = model.RunWaiting
		return true, false
	}
	return false, false
}

// mergeTally is what the branches of a stage that merges all of its pull requests or none
// came to: the pull requests merged, not merged, in flight, and why any is held back.
type mergeTally struct{ merged, notMerged, blocked, waiting, inFlight []string }

// tallyMerge adds merge branch b of the run's current stage to t.
func tallyMerge(k StageKernel, p *lang.Pipeline, run *model.Run, b *lang.Stage, t *mergeTally) {
	bsr := run.Stages[b.ID]
	if bsr == nil || bsr.Status == model.StageSkipped {
		return
	}
	pr, ref, why := Target(k, p, run, b)
	name := ref.String()
	if ref.Number == 0 {
		name = "pr_number " + b.Config.PR.Src
	}
	if pr == nil {
		t.notMerged = append(t.notMerged, b.ID)
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, why))
		return
	}
	if pr.State == model.PRMerged {
		t.merged = append(t.merged, fmt.Sprintf("%s (branch %s)", name, b.ID))
		return
	}
	t.notMerged = append(t.notMerged, fmt.Sprintf("%s (branch %s)", name, b.ID))
	if bsr.Status == model.StageActing {
		// Its merge was asked for and may be going in: what is merged is not known
		// before its outcome is. What its facts show still holds the others back.
		t.inFlight = append(t.inFlight, name)
	}
	if bsr.Status == model.StageFailed {
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, bsr.Message))
		return
	}
	restore := k.OnPR(pr, ref)
	guard := k.GuardBlocks(p, run, b)
	restore()
	switch {
	case pr.State == model.PRClosed:
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): it was closed without merging", name, b.ID))
	case pr.Draft:
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): it is a draft", name, b.ID))
	case pr.Mergeable == model.Conflicting:
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): it has conflicts with its base branch", name, b.ID))
	case guard != "":
		t.blocked = append(t.blocked, fmt.Sprintf("%s (branch %s): %s", name, b.ID, guard))
	case pr.Mergeable != model.Mergeable || pr.MergeState == model.MergeStateUnknown:
		t.waiting = append(t.waiting, fmt.Sprintf("%s: GitHub has not computed whether it can be merged", name))
	}
}
