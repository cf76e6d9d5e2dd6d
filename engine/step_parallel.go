package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// Parallel stages. Entering one starts all its branches at once: each branch is an agent
// or action stage with a record of its own in Run.Stages, under its id (branch ids are
// unique among the stages and branches of a pipeline), with StageRun.Parent naming the
// parallel stage and ParentAttempt the entry of that stage it belongs to. A branch is
// dispatched and settled by the machinery of its type (step_agent.go, step_stage.go):
// write-ahead intents, one dispatch per attempt, reports to `--stage <branch>`. A branch
// has no transitions of its own: where the machinery of its type would leave it, the
// branch ends (succeeded, failed) and the join decides (leaveBranch).
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

// DeadlineBranch is the timeout of one branch of a parallel stage, kept with the stage's
// own deadlines (Deadline.Branch names the branch).
const DeadlineBranch = "branch"

// ruleOnAnyReject names on_any_reject in Run.Iterations and in messages ("on_any_reject").
const ruleOnAnyReject = "any_reject"

func init() { deadlineHandlers[DeadlineBranch] = (*eval).branchTimedOut }

// branchOf returns the branch id of stage par, or nil.
func branchOf(par *lang.Stage, id string) *lang.Stage {
	if par == nil {
		return nil
	}
	for _, b := range par.Branches {
		if b != nil && b.ID == id {
			return b
		}
	}
	return nil
}

// stageOrBranch returns the stage of p called id, or the branch of one of its parallel
// stages called so, or nil.
func stageOrBranch(p *lang.Pipeline, id string) *lang.Stage {
	if s := p.Stage(id); s != nil {
		return s
	}
	for _, s := range p.Stages {
		if b := branchOf(s, id); b != nil {
			return b
		}
	}
	return nil
}

// branchPending reports whether a branch with status s is still open: dispatched or
// acting, waiting for its report or its effect.
func branchPending(s StageStatus) bool {
	return s == StageWaiting || s == StageActing || s == StageRetrying
}

// isBranch reports whether stage is a branch of the parallel stage its record in run
// names as its parent — in the config, not on the record's word alone.
func (e *eval) isBranch(run *Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	if sr == nil || sr.Parent == "" {
		return false
	}
	p := e.cfg.PipelineFor(run)
	return p != nil && branchOf(p.Stage(sr.Parent), stage.ID) != nil
}

// At reports whether the run stands at stage: its current stage, or a branch of its
// current (parallel) stage that is still open in this entry of it.
func (r *Run) At(stage string) bool {
	if r.Stage == stage {
		return true
	}
	sr, par := r.Stages[stage], r.Stages[r.Stage]
	return sr != nil && par != nil && sr.Parent == r.Stage && sr.ParentAttempt == par.Attempt && branchPending(sr.Status)
}

// notAt says why run does not stand at stage (see At), for a refused report.
func notAt(run *Run, stage string) string {
	sr := run.Stages[stage]
	if sr == nil || sr.Parent == "" {
		return fmt.Sprintf("the run is at stage %q, not %q", run.Stage, stage)
	}
	if sr.Status == StageCancelled {
		return fmt.Sprintf("branch %q of stage %q was %s; the run is at stage %q", stage, sr.Parent, strings.TrimSpace(sr.Message), run.Stage)
	}
	if par := run.Stages[sr.Parent]; run.Stage != sr.Parent || par == nil || par.Attempt != sr.ParentAttempt {
		return fmt.Sprintf("branch %q belongs to an earlier entry of stage %q; the run is at stage %q", stage, sr.Parent, run.Stage)
	}
	switch sr.Status {
	case StageSkipped:
		return fmt.Sprintf("branch %q of stage %q was skipped: %s", stage, sr.Parent, sr.Message)
	}
	done := string(sr.Status)
	if sr.Verdict != "" {
		done += " with verdict " + sr.Verdict
	}
	return fmt.Sprintf("branch %q of stage %q has already %s", stage, sr.Parent, done)
}

// unsupportedParallel names what a parallel stage uses that Step cannot execute yet, or "".
func unsupportedParallel(s *lang.Stage) string {
	for _, b := range s.Branches {
		where := fmt.Sprintf("branch %q of stage %q at %s", b.ID, s.ID, b.Pos)
		switch b.Type {
		case lang.StageAction:
			// A merge belongs after the join, behind the gates the merge guard checks.
			if !executedActions[b.Action] {
				return fmt.Sprintf("action %q in a branch (%s)", b.Action, where)
			}
			if b.Action == lang.ActionMergePR { // step_multipr.go
				if what := unsupportedMergeBranch(b, where); what != "" {
					return what
				}
			}
		}
	}
	return ""
}

// branchesStarted reports whether the branches of par belong to the run's current entry.
func branchesStarted(run *Run, par *lang.Stage) bool {
	sr := run.Stages[par.ID]
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Parent != par.ID || bsr.ParentAttempt != sr.Attempt {
			return false
		}
	}
	return true
}

// startBranches starts every branch of par for the run's current entry of it, but those
// in keep, whose result (from the entry before) stands. A branch's condition is decided
// here, once per entry (step_condition.go); one that cannot be decided stops the run, as
// a stage's does.
func (e *eval) startBranches(p *lang.Pipeline, run *Run, par *lang.Stage, keep map[string]bool) {
	sr := run.Stages[par.ID]
	var started, skipped, kept []string
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil {
			bsr = &StageRun{}
			run.Stages[b.ID] = bsr
		}
		bsr.Parent, bsr.ParentAttempt = par.ID, sr.Attempt
		if keep[b.ID] {
			kept = append(kept, b.ID)
			continue
		}
		bsr.Attempt++
		bsr.Tries, bsr.Errors = 0, 0
		bsr.Status = StageWaiting
		bsr.EnteredAt = e.now
		bsr.Results, bsr.Message, bsr.Outputs, bsr.Verdict, bsr.HeadSHA, bsr.Deadlines = nil, "", nil, "", "", nil
		bsr.ConditionChecked = false
		if b.Condition != nil {
			holds, why, err := e.conditionHolds(p, run, b.Condition)
			if err != nil {
				bsr.Status, bsr.Message = StageFailed, err.Error()
				e.finish(run, RunFailed, lang.TargetFail, fmt.Sprintf("branch %q of stage %q: %v", b.ID, par.ID, err))
				return
			}
			bsr.ConditionChecked = holds
			if !holds {
				bsr.Status, bsr.Message = StageSkipped, "condition does not hold ("+why+"); skipped"
				skipped = append(skipped, b.ID)
				continue
			}
		}
		if b.Timeout > 0 {
			sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineBranch, At: e.now.Add(b.Timeout), Branch: b.ID})
		}
		started = append(started, b.ID)
	}
	msg := fmt.Sprintf("run %s: stage %s (attempt %d) starts %s %s", run.ID, par.ID, sr.Attempt, plural(len(started), "branch", "branches"), strings.Join(started, ", "))
	if len(skipped) > 0 {
		msg += "; skipped (condition): " + strings.Join(skipped, ", ")
	}
	if len(kept) > 0 {
		msg += "; kept from the attempt before: " + strings.Join(kept, ", ")
	}
	e.logf("%s", msg)
}

// parallel evaluates parallel stage par of run: starts its branches on a new entry,
// moves each open branch as its type does, then applies the join.
func (e *eval) parallel(p *lang.Pipeline, run *Run, par *lang.Stage) bool {
	if !branchesStarted(run, par) {
		if e.startBranches(p, run, par, nil); run.Status.Final() {
			return false
		}
	}
	if stop, moved := e.mergeAll(p, run, par); stop { // step_multipr.go
		return moved
	}
	for _, b := range par.Branches {
		if !branchPending(run.Stages[b.ID].Status) {
			continue
		}
		switch b.Type {
		case lang.StageAgent:
			e.agent(p, run, b)
		case lang.StageAction:
			if _, done := e.branchMerge(p, run, b); !done { // step_multipr.go
				e.action(p, run, b)
			}
		case lang.StagePipeline:
			e.pipelineBranch(p, run, b) // step_pipeline.go
		default:
			e.finish(run, RunFailed, lang.TargetFail, fmt.Sprintf("not supported yet: a %s branch (branch %q of stage %q at %s)", b.Type, b.ID, par.ID, b.Pos))
		}
		if run.Status.Final() || run.Stage != par.ID {
			return false
		}
	}
	return e.join(p, run, par)
}

// joinNeed is how many branches of par must succeed, of ran that were not skipped.
func joinNeed(par *lang.Stage, ran int) int {
	need := ran
	switch {
	case par.JoinCount > 0:
		need = min(par.JoinCount, ran)
	case par.Join == lang.JoinAny:
		need = min(1, ran)
	}
	return need
}

// rejects reports whether verdict asks for changes (on_any_reject applies).
func rejects(verdict string) bool {
	return verdict == lang.VerdictReject || verdict == lang.VerdictRevise || verdict == lang.VerdictFollowup
}

// join applies the join of par to its branches, and reports whether the run moved.
func (e *eval) join(p *lang.Pipeline, run *Run, par *lang.Stage) bool {
	sr := run.Stages[par.ID]
	var ok, open, skipped, rejected, acting int
	var rejecting, failing []string
	results := make([]GateResult, 0, len(par.Branches))
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		switch {
		case bsr.Status == StageSucceeded:
			ok++
		case bsr.Status == StageSkipped:
			skipped++
		case branchPending(bsr.Status):
			open++
			if bsr.Status == StageActing {
				acting++
			}
		case rejects(bsr.Verdict):
			rejected++
			rejecting = append(rejecting, b.ID)
		default:
			failing = append(failing, b.ID)
		}
		results = append(results, branchResult(b, bsr))
	}
	sr.Results = results
	need := joinNeed(par, len(par.Branches)-skipped)
	note := joinNote(par)
	switch {
	case ok >= need:
		why := fmt.Sprintf("%s met: %d of %d %s succeeded", note, ok, len(par.Branches)-skipped, plural(len(par.Branches)-skipped, "branch", "branches"))
		if skipped > 0 {
			why += fmt.Sprintf(", %d skipped", skipped)
		}
		e.cancelBranches(run, par, why)
		e.leave(run, par, StageSucceeded, nextOf(p, par, par.OnComplete), why)
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
		e.cancelBranches(run, par, why)
		if rejected > 0 && par.OnAnyReject != nil {
			e.followRule(p, run, par, ruleOnAnyReject, par.OnAnyReject, why)
			return true
		}
		sr.Message = why
		e.leave(run, par, StageFailed, lang.TargetFail, why)
		return true
	}
	sr.Status = StageWaiting
	run.Status = RunWaiting
	if acting > 0 {
		run.Status = RunRunning
	}
	return false
}

// branchResult is how a branch shows in its parallel stage's results (the status comment).
func branchResult(b *lang.Stage, bsr *StageRun) GateResult {
	r := GateResult{Check: "branch " + b.ID}
	who := "action " + b.Action
	switch b.Type {
	case lang.StageAgent:
		who = "agent " + b.Agent
	case lang.StagePipeline:
		// Whom its child waits for (followBranchChild), else the sub-pipeline.
		who = "the sub-pipeline " + b.Pipeline
		if len(bsr.Results) > 0 && bsr.Results[0].Who != "" && branchPending(bsr.Status) {
			who = bsr.Results[0].Who
		}
	}
	switch {
	case bsr.Status == StageSucceeded:
		r.Status = GatePass
	case bsr.Status == StageSkipped:
		r.Status, r.Optional = GatePass, true
	case branchPending(bsr.Status):
		r.Status, r.Who = GatePending, who
	default:
		r.Status = GateFail
	}
	msg := string(bsr.Status)
	if bsr.Verdict != "" {
		msg += ", verdict " + bsr.Verdict
	}
	if r.Who == "" {
		msg += " · " + who
	}
	if bsr.Message != "" {
		msg += ": " + bsr.Message
	}
	r.Message = msg
	return r
}

// leaveBranch ends branch stage of run with status where the machinery of its type would
// leave it for a target: a branch has no transitions; the join decides. It reports
// whether stage is a branch (and so was handled).
func (e *eval) leaveBranch(run *Run, stage *lang.Stage, status StageStatus, why string) bool {
	if !e.isBranch(run, stage) {
		return false
	}
	sr := run.Stages[stage.ID]
	sr.Status, sr.Message, sr.Results = status, why, nil
	if par := run.Stages[sr.Parent]; par != nil {
		par.Deadlines = dropBranchDeadline(par.Deadlines, stage.ID)
	}
	e.logf("run %s: branch %s of %s %s: %s", run.ID, stage.ID, sr.Parent, status, why)
	return true
}

// branchVerdict applies the verdict of a report to branch stage of run; it reports
// whether stage is a branch (and so was handled).
func (e *eval) branchVerdict(run *Run, stage *lang.Stage, verdict, why string) bool {
	if !e.isBranch(run, stage) {
		return false
	}
	status := StageFailed
	if verdict == lang.VerdictComplete || verdict == lang.VerdictApprove {
		status = StageSucceeded
	}
	return e.leaveBranch(run, stage, status, why)
}

// cancelBranches cancels the branches of par still open in the run's current entry of
// it: their reports are refused from now on, and their effects in flight forgotten.
func (e *eval) cancelBranches(run *Run, par *lang.Stage, why string) {
	sr := run.Stages[par.ID]
	if sr == nil {
		return
	}
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Parent != par.ID || bsr.ParentAttempt != sr.Attempt || !branchPending(bsr.Status) {
			continue
		}
		bsr.Status, bsr.Message, bsr.Results = StageCancelled, "cancelled: "+why, nil
		// What this evaluation asked for the branch is not asked for any more.
		kept := e.effects[:0]
		for _, eff := range e.effects {
			if eff.Run == run.ID && eff.Stage == b.ID {
				e.logf("run %s: %s is not asked for: branch %s is cancelled", run.ID, eff.Key, b.ID)
				continue
			}
			kept = append(kept, eff)
		}
		e.effects = kept
		for _, it := range run.Intents {
			if it.Stage == b.ID {
				run.Intents = dropIntent(run.Intents, it.Key)
				e.logf("run %s: the outcome of %s asked for at %s is not known; branch %s is cancelled without it", run.ID, it.Key, it.At.UTC().Format("2006-01-02T15:04:05Z07:00"), b.ID)
			}
		}
		e.logf("run %s: branch %s of %s cancelled: %s", run.ID, b.ID, par.ID, why)
	}
	sr.Deadlines = dropKind(sr.Deadlines, DeadlineBranch)
}

// closeBranches cancels the open branches of the run's current stage when the run leaves
// it (a timeout, a chat-op, the end of the run): called as the run moves.
func (e *eval) closeBranches(run *Run, why string) {
	sr := run.Stages[run.Stage]
	if sr == nil {
		return
	}
	p := e.cfg.PipelineFor(run)
	if p == nil {
		return
	}
	if par := p.Stage(run.Stage); par != nil && par.Type == lang.StageParallel {
		e.cancelBranches(run, par, fmt.Sprintf("stage %s was left (%s)", par.ID, why))
	}
}

// branchTimedOut ends a branch whose timeout passed: it fails, and the join decides.
func (e *eval) branchTimedOut(p *lang.Pipeline, run *Run, par *lang.Stage, d Deadline) bool {
	b := branchOf(par, d.Branch)
	if b == nil || !run.At(b.ID) {
		return false
	}
	e.leaveBranch(run, b, StageFailed, fmt.Sprintf("branch %q timed out at %s", b.ID, d.At.UTC().Format("2006-01-02 15:04 UTC")))
	return false
}

// branchEffect returns the branch of parallel stage par whose current effect has key.
func branchEffect(run *Run, par *lang.Stage, key string) *lang.Stage {
	for _, b := range par.Branches {
		if !run.At(b.ID) {
			continue
		}
		switch b.Type {
		case lang.StageAgent:
			if dispatchKey(run, b) == key {
				return b
			}
		case lang.StageAction:
			if fmt.Sprintf("%s/%s/%d/%s", run.ID, b.ID, run.Stages[b.ID].Attempt, b.Action) == key {
				return b
			}
		}
	}
	return nil
}

// retryParallel, after `/pipeline retry` entered parallel stage par anew, starts again
// the branches that had not succeeded; those that had keep their result.
func (e *eval) retryParallel(p *lang.Pipeline, run *Run, par *lang.Stage) {
	if par == nil || par.Type != lang.StageParallel {
		return
	}
	sr := run.Stages[par.ID]
	keep := map[string]bool{}
	for _, b := range par.Branches {
		if bsr := run.Stages[b.ID]; bsr != nil && bsr.Parent == par.ID && bsr.ParentAttempt == sr.Attempt-1 && bsr.Status == StageSucceeded {
			keep[b.ID] = true
		}
	}
	e.startBranches(p, run, par, keep)
}

// branchesEnv is `branches` in expressions and templates while run stands at a parallel
// stage: one entry per branch, in file order, with its id, status, verdict, attempt,
// agent, outputs, and feedback (outputs.feedback, or null; of a pipeline branch whose
// child rejected, the rejecting child stage's outputs.feedback). Nil elsewhere.
func (e *eval) branchesEnv(p *lang.Pipeline, run *Run) []any {
	if p == nil {
		return nil
	}
	par := p.Stage(run.Stage)
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
				m["pipeline"], m["feedback"] = b.Pipeline, e.childFeedback(bsr)
			}
		}
		out = append(out, m)
	}
	return out
}

// childFeedback is the feedback of a pipeline branch: the outputs.feedback of the stage
// its child rejected at (followBranchChild), or nil.
func (e *eval) childFeedback(bsr *StageRun) any {
	if !rejects(bsr.Verdict) || bsr.Child == "" {
		return nil
	}
	child := e.runByID(bsr.Child)
	if child == nil {
		return nil
	}
	if stage, _ := rejectingStage(child); stage != "" {
		return child.Stages[stage].Outputs["feedback"]
	}
	return nil
}

// branchLedger records the review branches of parallel stage par in l, as review stages:
// those of its last entry that were neither skipped nor cancelled. A branch cancelled once
// the join was met is not required; one that rejected is, so `pr_approvals_met` never
// passes on a review that was given and was not an approval.
//
// When an invalidate_and_restart reaction made the parallel stage itself stale, the
// verdicts of its branches are stale with it (until the stage runs them again).
func branchLedger(l *Ledger, run *Run, par *lang.Stage, head string) {
	psr := run.Stages[par.ID]
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Parent != par.ID || bsr.Status == StageSkipped || bsr.Status == StageCancelled || !isReviewStage(b) {
			continue
		}
		if psr != nil && psr.Status == StageStale && psr.Stale != nil && bsr.Verdict != "" {
			view := *bsr
			view.Stale = &Stale{At: psr.Stale.At, Why: psr.Stale.Why, Verdict: bsr.Verdict, SHA: bsr.HeadSHA}
			view.Verdict = ""
			bsr = &view
		}
		agentLedger(l, b, bsr, head)
	}
}

// unblockBranches, after `/pipeline unblock` let a run escalated at parallel stage par go
// on with the same attempt, gives each branch still open what the escalation took from it:
// its timeout, counted from the unblock (escalating dropped the stage's deadlines: the run
// waited for a person, not for time; the stage's own timeout is not armed again, as for
// any stage), and, for a pipeline branch, its child run — cancelled when its parent
// escalated — which a new attempt of the branch starts anew.
func (e *eval) unblockBranches(run *Run, par *lang.Stage) {
	if par == nil || par.Type != lang.StageParallel {
		return
	}
	sr := run.Stages[par.ID]
	if sr == nil || !branchesStarted(run, par) {
		return
	}
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if !branchPending(bsr.Status) {
			continue
		}
		if b.Type == lang.StagePipeline && bsr.Child != "" {
			if c := e.runByID(bsr.Child); c == nil || c.Status.Final() {
				ended := bsr.Child
				bsr.Attempt++
				bsr.Child, bsr.Outputs, bsr.Verdict = "", nil, ""
				bsr.EnteredAt = e.now
				e.logf("run %s: branch %s of %s starts attempt %d: its sub-pipeline run %s ended while the run was escalated", run.ID, b.ID, par.ID, bsr.Attempt, ended)
			}
		}
		if b.Timeout > 0 {
			sr.Deadlines = append(dropBranchDeadline(sr.Deadlines, b.ID), Deadline{Kind: DeadlineBranch, At: e.now.Add(b.Timeout), Branch: b.ID})
		}
	}
}
