// Package parallel is the parallel stage type. Entering one starts all its branches at
// once: each branch is a stage of another type (agent, action, pipeline) with a record of
// its own in Run.Stages, under its id (branch ids are unique among the stages and branches
// of a pipeline), with StageRun.Parent naming the parallel stage and ParentAttempt the
// entry of that stage it belongs to. A branch is dispatched and settled by the machinery
// of its type, which the kernel runs (stage.Branches): write-ahead intents, one dispatch
// per attempt, reports to `--stage <branch>`. A branch has no transitions of its own:
// where the machinery of its type would leave it, the branch ends (succeeded, failed) and
// the join decides (End).
//
// A branch succeeds on a `complete` or `approve` verdict, or when its action is done. It
// rejects on `reject`, `revise` or `followup`. It fails on a `failed` verdict, an agent
// error, an action that failed for good, or its `timeout`. A branch whose `condition` does
// not hold is skipped, and not waited for.
//
// The join: `all` needs every branch that was not skipped to succeed; `any` one; `N` N of
// them (or all that were not skipped, when fewer ran). Once it is met the stage completes
// (on_complete) and the branches still open are cancelled: their late reports are refused.
// Once it can no longer be met — too few branches are still open — the open branches are
// cancelled too, and: when a branch rejected and the stage has `on_any_reject`, that rule
// is followed like a verdict's loop rule (counted in Run.Iterations as
// "<stage>/any_reject", `then` once spent, its `context` rendered with `branches` in
// scope); otherwise the run fails. So with `all`, the first rejection or failure decides
// at once; with `any` or N, only when the join is out of reach.
package parallel

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// RuleOnAnyReject names on_any_reject as a verdict's rule: in Run.Iterations
// ("<stage>/any_reject") and in messages ("on_any_reject").
const RuleOnAnyReject = "any_reject"

// Type runs its branches at once and joins them.
type Type struct {
	stage.Nobody
}

// Arm arms nothing: a branch's timeout is armed as the branch starts.
func (Type) Arm(*lang.Stage, *model.StageRun, time.Time) {}

// Step starts the branches on a new entry of par, moves each open branch as its type
// does, then applies the join.
func (Type) Step(c stage.Context, run *model.Run, par *lang.Stage) stage.Decision {
	if !BranchesStarted(run, par) {
		if dec := Start(c, run, par, nil, nil); dec.Move != stage.MoveNone {
			return dec
		}
	}
	if c.MergeAll(par) {
		return stage.Stay()
	}
	for _, b := range par.Branches {
		if !model.BranchPending(run.Stages[b.ID].Status) {
			continue
		}
		if !c.StepBranch(b) {
			return stage.Stop(fmt.Sprintf("not supported yet: a %s branch (branch %q of stage %q at %s)", b.Type, b.ID, par.ID, b.Pos))
		}
		if run.Status.Final() || run.Stage != par.ID {
			return stage.Stay()
		}
	}
	return join(c, run, par)
}

// Deadline ends a branch whose timeout passed: it fails, and the join decides.
func (Type) Deadline(c stage.Context, run *model.Run, par *lang.Stage, d model.Deadline) (stage.Decision, bool) {
	if d.Kind != model.DeadlineBranch {
		return stage.Stay(), false
	}
	if b := branchOf(par, d.Branch); b != nil && run.At(b.ID) {
		End(c, run, b, model.StageFailed, fmt.Sprintf("branch %q timed out at %s", b.ID, d.At.UTC().Format("2006-01-02 15:04 UTC")))
	}
	return stage.Stay(), true
}

// Recheck: a parallel stage holds when enough of its branches hold for its join.
func (Type) Recheck(g stage.Guard, s *lang.Stage) stage.Verdict {
	return stage.Judge(g, s, g.JoinHolds)
}

// StillHolds: a parallel stage the run passed holds while its join holds and every
// pipeline branch that succeeded still holds; one it skipped, while it is skipped still
// or its join holds.
func (Type) StillHolds(g stage.Guard, s *lang.Stage, sr *model.StageRun) bool {
	if sr.Status == model.StageSkipped {
		return g.Skips(s) || g.JoinHolds(s)
	}
	return sr.Status != model.StageSucceeded || g.JoinHolds(s) && g.BranchesHold(s)
}
