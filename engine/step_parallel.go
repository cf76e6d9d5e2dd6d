package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/guardwalk"
	"github.com/org/pipeline-action/engine/lang"
)

// Parallel stages. Entering one starts all its branches at once: each branch is an agent
// or action stage with a record of its own in Run.Stages, under its id (branch ids are
// unique among the stages and branches of a pipeline), with StageRun.Parent naming the
// parallel stage and ParentAttempt the entry of that stage it belongs to. A branch is
// dispatched and settled by the machinery of its type:
// write-ahead intents, one dispatch per attempt, reports to `--stage <branch>`. A branch
// has no transitions of its own: where the machinery of its type would leave it, the
// branch ends (succeeded, failed) and the join decides (LeaveBranch).
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

// ruleOnAnyReject names on_any_reject in Run.Iterations and in messages ("on_any_reject").
const ruleOnAnyReject = "any_reject"

// parallelType runs its branches at once and joins them.
type parallelType struct {
	noBranch
	noAnswers
	nobody
}

// recheck: a parallel stage holds when enough of its branches hold for its join.
func (parallelType) recheck(g *guardCheck, s *lang.Stage) stage.Verdict {
	return guardwalk.Judge(s, g.Skips, g.joinHolds)
}

// stillHolds: every pipeline branch the run's record says succeeded still holds.
func (parallelType) stillHolds(g *guardCheck, s *lang.Stage, sr *model.StageRun) bool {
	if sr.Status == model.StageSkipped {
		return g.Skips(s) || g.joinHolds(s)
	}
	return sr.Status != model.StageSucceeded || g.joinHolds(s) && g.branchesHold(s)
}

func (parallelType) arm(*lang.Stage, *model.StageRun, time.Time) {}

func (parallelType) step(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage) bool {
	return e.parallel(p, run, stage)
}

func (parallelType) deadline(kind string) deadlineHandler {
	if kind == model.DeadlineBranch {
		return (*eval).branchTimedOut
	}
	return nil
}

// startBranches starts every branch of par for the run's current entry of it, but those
// in keep, whose result (from the entry before) stands. A branch's condition is decided
// here, once per entry; one that cannot be decided stops the run, as
// a stage's does. Those in must start without it: the merge guard found they must hold.
func (e *eval) startBranches(p *lang.Pipeline, run *model.Run, par *lang.Stage, keep, must map[string]bool) {
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
		bsr.EnteredAt = e.Now
		bsr.Results, bsr.Message, bsr.Outputs, bsr.Verdict, bsr.HeadSHA, bsr.Deadlines = nil, "", nil, "", "", nil
		bsr.ConditionChecked = must[b.ID]
		if b.Condition != nil && !must[b.ID] {
			holds, why, err := e.conditionHolds(p, run, b.Condition)
			if err != nil {
				bsr.Status, bsr.Message = model.StageFailed, err.Error()
				e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("branch %q of stage %q: %v", b.ID, par.ID, err))
				return
			}
			bsr.ConditionChecked = holds
			if !holds {
				bsr.Status, bsr.Message = model.StageSkipped, "condition does not hold ("+why+"); skipped"
				skipped = append(skipped, b.ID)
				continue
			}
		}
		if b.Timeout > 0 {
			sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineBranch, At: e.Now.Add(b.Timeout), Branch: b.ID})
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
	e.Logf("%s", msg)
}

// parallel evaluates parallel stage par of run: starts its branches on a new entry,
// moves each open branch as its type does, then applies the join.
func (e *eval) parallel(p *lang.Pipeline, run *model.Run, par *lang.Stage) bool {
	if !core.BranchesStarted(run, par) {
		if e.startBranches(p, run, par, nil, nil); run.Status.Final() {
			return false
		}
	}
	if stop, moved := e.mergeAll(p, run, par); stop {
		return moved
	}
	for _, b := range par.Branches {
		if !model.BranchPending(run.Stages[b.ID].Status) {
			continue
		}
		if t := stageTypes[b.Type]; t == nil || !t.branch(e, p, run, b) {
			e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("not supported yet: a %s branch (branch %q of stage %q at %s)", b.Type, b.ID, par.ID, b.Pos))
		}
		if run.Status.Final() || run.Stage != par.ID {
			return false
		}
	}
	return e.join(p, run, par)
}

// join applies the join of par to its branches, and reports whether the run moved.
func (e *eval) join(p *lang.Pipeline, run *model.Run, par *lang.Stage) bool {
	sr := run.Stages[par.ID]
	var ok, open, skipped, rejected, acting int
	var rejecting, failing []string
	results := make([]model.GateResult, 0, len(par.Branches))
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		switch {
		case bsr.Status == model.StageSucceeded:
			ok++
		case bsr.Status == model.StageSkipped:
			skipped++
		case model.BranchPending(bsr.Status):
			open++
			if bsr.Status == model.StageActing {
				acting++
			}
		case core.Rejects(bsr.Verdict):
			rejected++
			rejecting = append(rejecting, b.ID)
		default:
			failing = append(failing, b.ID)
		}
		results = append(results, core.BranchResult(b, bsr))
	}
	sr.Results = results
	need := core.JoinNeed(par, len(par.Branches)-skipped)
	note := graph.JoinNote(par)
	switch {
	case ok >= need:
		why := fmt.Sprintf("%s met: %d of %d %s succeeded", note, ok, len(par.Branches)-skipped, model.Plural(len(par.Branches)-skipped, "branch", "branches"))
		if skipped > 0 {
			why += fmt.Sprintf(", %d skipped", skipped)
		}
		e.CancelBranches(run, par, why)
		e.leave(run, par, model.StageSucceeded, stage.NextOf(p, par, par.OnComplete), why)
		return true
	case ok+open < need:
		var parts []string
		if len(rejecting) > 0 {
			parts = append(parts, fmt.Sprintf("%s rejected", strings.Join(rejecting, ", ")))
		}
		if len(failing) > 0 {
			parts = append(parts, fmt.Sprintf("%s failed", strings.Join(failing, ", ")))
		}
		why := fmt.Sprintf("%s can no longer be met: %s", note, strings.Join(parts, "; "))
		e.CancelBranches(run, par, why)
		if rejected > 0 && par.OnAnyReject != nil {
			e.followRule(p, run, par, ruleOnAnyReject, par.OnAnyReject, why)
			return true
		}
		sr.Message = why
		e.leave(run, par, model.StageFailed, lang.TargetFail, why)
		return true
	}
	sr.Status = model.StageWaiting
	run.Status = model.RunWaiting
	if acting > 0 {
		run.Status = model.RunRunning
	}
	return false
}

// branchVerdict applies the verdict of a report to branch stage of run; it reports
// whether stage is a branch (and so was handled).
func (e *eval) branchVerdict(run *model.Run, stage *lang.Stage, verdict, why string) bool {
	if !e.IsBranch(run, stage) {
		return false
	}
	status := model.StageFailed
	if verdict == lang.VerdictComplete || verdict == lang.VerdictApprove {
		status = model.StageSucceeded
	}
	return e.LeaveBranch(run, stage, status, why)
}

// closeBranches cancels the open branches of the run's current stage when the run leaves
// it (a timeout, a chat-op, the end of the run): called as the run moves.
func (e *eval) closeBranches(run *model.Run, why string) {
	sr := run.Stages[run.Stage]
	if sr == nil {
		return
	}
	p := e.Cfg.PipelineFor(run)
	if p == nil {
		return
	}
	if par := e.StageOf(p, run.Stage); par != nil && par.Type == lang.StageParallel {
		e.CancelBranches(run, par, fmt.Sprintf("stage %s was left (%s)", par.ID, why))
	}
}

// branchTimedOut ends a branch whose timeout passed: it fails, and the join decides.
func (e *eval) branchTimedOut(p *lang.Pipeline, run *model.Run, par *lang.Stage, d model.Deadline) bool {
	b := core.BranchOf(par, d.Branch)
	if b == nil || !run.At(b.ID) {
		return false
	}
	e.LeaveBranch(run, b, model.StageFailed, fmt.Sprintf("branch %q timed out at %s", b.ID, d.At.UTC().Format("2006-01-02 15:04 UTC")))
	return false
}

// retryParallel, after `/pipeline retry` entered parallel stage par anew, starts again
// the branches that had not succeeded; those that had keep their result.
func (e *eval) retryParallel(p *lang.Pipeline, run *model.Run, par *lang.Stage) {
	if par == nil || par.Type != lang.StageParallel {
		return
	}
	sr := run.Stages[par.ID]
	keep := map[string]bool{}
	for _, b := range par.Branches {
		if bsr := run.Stages[b.ID]; bsr != nil && bsr.Parent == par.ID && bsr.ParentAttempt == sr.Attempt-1 && bsr.Status == model.StageSucceeded {
			keep[b.ID] = true
		}
	}
	e.startBranches(p, run, par, keep, nil)
}

// branchesEnv is `branches` in expressions and templates while run stands at a parallel
// stage: one entry per branch, in file order, with its id, status, verdict, attempt,
// agent, outputs, and feedback (outputs.feedback, or null; of a pipeline branch whose
// child rejected, the rejecting child stage's outputs.feedback). Nil elsewhere.
func (e *eval) branchesEnv(p *lang.Pipeline, run *model.Run) []any {
	if p == nil {
		return nil
	}
	par := e.StageOf(p, run.Stage)
	if par == nil || par.Type != lang.StageParallel {
		return nil
	}
	out := make([]any, 0, len(par.Branches))
	for _, b := range par.Branches {
		m := map[string]any{"id": b.ID, "status": "", "verdict": "", "attempt": 0, "agent": b.Agent, "outputs": map[string]any{}, "feedback": nil}
		if bsr := run.Stages[b.ID]; bsr != nil {
			m["status"], m["verdict"], m["attempt"] = string(bsr.Status), bsr.Verdict, bsr.Attempt
			if bsr.Outputs != nil {
				m["outputs"] = bsr.Outputs
				m["feedback"] = bsr.Outputs["feedback"]
			}
			if b.Type == lang.StagePipeline {
				m["pipeline"], m["feedback"] = b.Pipeline, e.ChildFeedback(bsr)
			}
		}
		out = append(out, m)
	}
	return out
}
