package parallel

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Start starts every branch of par for the run's current entry of it, but those in keep,
// whose result (from the entry before) stands. A branch's condition is decided here, once
// per entry; one that cannot be decided stops the run (the Decision), as a stage's does.
// Those in must start without it: the merge guard found they must hold.
func Start(c stage.Context, run *model.Run, par *lang.Stage, keep, must map[string]bool) stage.Decision {
	sr := run.Stages[par.ID]
	var started, skipped, kept []string
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil {
			bsr = &model.StageRun{}
			run.Stages[b.ID] = bsr
		}
		bsr.Parent, bsr.ParentAttempt = par.ID, sr.Attempt
		if keep[b.ID] {
			kept = append(kept, b.ID)
			continue
		}
		bsr.Attempt++
		bsr.Tries, bsr.Errors = 0, 0
		bsr.Status = model.StageWaiting
		bsr.EnteredAt = c.Now()
		bsr.Results, bsr.Message, bsr.Outputs, bsr.Verdict, bsr.HeadSHA, bsr.Deadlines = nil, "", nil, "", "", nil
		bsr.ConditionChecked = must[b.ID]
		if b.Condition != nil && !must[b.ID] {
			holds, why, err := c.BranchHolds(b)
			if err != nil {
				bsr.Status, bsr.Message = model.StageFailed, err.Error()
				return stage.Stop(fmt.Sprintf("branch %q of stage %q: %v", b.ID, par.ID, err))
			}
			bsr.ConditionChecked = holds
			if !holds {
				bsr.Status, bsr.Message = model.StageSkipped, "condition does not hold ("+why+"); skipped"
				skipped = append(skipped, b.ID)
				continue
			}
		}
		if b.Timeout > 0 {
			sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineBranch, At: c.Now().Add(b.Timeout), Branch: b.ID})
		}
		started = append(started, b.ID)
	}
	msg := fmt.Sprintf("run %s: stage %s (attempt %d) starts %s %s", run.ID, par.ID, sr.Attempt, model.Plural(len(started), "branch", "branches"), strings.Join(started, ", "))
	if len(skipped) > 0 {
		msg += "; skipped (condition): " + strings.Join(skipped, ", ")
	}
	if len(kept) > 0 {
		msg += "; kept from the attempt before: " + strings.Join(kept, ", ")
	}
	c.Logf("%s", msg)
	return stage.Stay()
}

// Retry, after `/pipeline retry` entered par anew, starts again the branches that had not
// succeeded; those that had keep their result.
func (Type) Retry(c stage.Context, run *model.Run, par *lang.Stage) stage.Decision {
	sr := run.Stages[par.ID]
	keep := map[string]bool{}
	for _, b := range par.Branches {
		if bsr := run.Stages[b.ID]; bsr != nil && bsr.Parent == par.ID && bsr.ParentAttempt == sr.Attempt-1 && bsr.Status == model.StageSucceeded {
			keep[b.ID] = true
		}
	}
	return Start(c, run, par, keep, nil)
}

// Unblock, after `/pipeline unblock` let a run escalated at par go on with the same
// attempt, gives each branch still open what the escalation took from it: its timeout,
// counted from the unblock (escalating dropped the stage's deadlines: the run waited for a
// person, not for time; the stage's own timeout is not armed again, as for any stage),
// and, for a pipeline branch, its child run — cancelled when its parent escalated — which
// a new attempt of the branch starts anew.
func (Type) Unblock(c stage.Context, run *model.Run, par *lang.Stage) {
	sr := run.Stages[par.ID]
	if sr == nil || !BranchesStarted(run, par) {
		return
	}
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if !model.BranchPending(bsr.Status) {
			continue
		}
		if b.Type == lang.StagePipeline && bsr.Child != "" {
			if child := c.ChildRun(bsr.Child); child == nil || child.Status.Final() {
				ended := bsr.Child
				bsr.Attempt++
				bsr.Child, bsr.Outputs, bsr.Verdict = "", nil, ""
				bsr.EnteredAt = c.Now()
				c.Logf("run %s: branch %s of %s starts attempt %d: its sub-pipeline run %s ended while the run was escalated", run.ID, b.ID, par.ID, bsr.Attempt, ended)
			}
		}
		if b.Timeout > 0 {
			sr.Deadlines = append(dropDeadline(sr.Deadlines, b.ID), model.Deadline{Kind: model.DeadlineBranch, At: c.Now().Add(b.Timeout), Branch: b.ID})
		}
	}
}

// BranchesStarted reports whether the branches of par belong to the run's current entry.
func BranchesStarted(run *model.Run, par *lang.Stage) bool {
	sr := run.Stages[par.ID]
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Parent != par.ID || bsr.ParentAttempt != sr.Attempt {
			return false
		}
	}
	return true
}
