package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"

	"github.com/org/pipeline-action/engine/lang"
)

// BranchOf returns the branch id of stage par, or nil.
func BranchOf(par *lang.Stage, id string) *lang.Stage {
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

// StageOrBranch returns the stage of p called id, or the branch of one of its parallel
// stages called so, or nil.
func StageOrBranch(p *lang.Pipeline, id string) *lang.Stage {
	if s := p.Stage(id); s != nil {
		return s
	}
	for _, s := range p.Stages {
		if b := BranchOf(s, id); b != nil {
			return b
		}
	}
	return nil
}

// IsBranch reports whether stage is a branch of the parallel stage its record in run
// names as its parent — in the config, not on the record's word alone.
func (e *Eval) IsBranch(run *model.Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	if sr == nil || sr.Parent == "" {
		return false
	}
	p := e.Cfg.PipelineFor(run)
	return p != nil && BranchOf(p.Stage(sr.Parent), stage.ID) != nil
}

// NotAt says why run does not stand at stage (see At), for a refused report.
func NotAt(run *model.Run, stage string) string {
	sr := run.Stages[stage]
	if sr == nil || sr.Parent == "" {
		return fmt.Sprintf("the run is at stage %q, not %q", run.Stage, stage)
	}
	if sr.Status == model.StageCancelled {
		return fmt.Sprintf("branch %q of stage %q was %s; the run is at stage %q", stage, sr.Parent, strings.TrimSpace(sr.Message), run.Stage)
	}
	if par := run.Stages[sr.Parent]; run.Stage != sr.Parent || par == nil || par.Attempt != sr.ParentAttempt {
		return fmt.Sprintf("branch %q belongs to an earlier entry of stage %q; the run is at stage %q", stage, sr.Parent, run.Stage)
	}
	switch sr.Status {
	case model.StageSkipped:
		return fmt.Sprintf("branch %q of stage %q was skipped: %s", stage, sr.Parent, sr.Message)
	}
	done := string(sr.Status)
	if sr.Verdict != "" {
		done += " with verdict " + sr.Verdict
	}
	return fmt.Sprintf("branch %q of stage %q has already %s", stage, sr.Parent, done)
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

// JoinNeed is how many branches of par must succeed, of ran that were not skipped.
func JoinNeed(par *lang.Stage, ran int) int {
	need := ran
	switch {
	case par.JoinCount > 0:
		need = min(par.JoinCount, ran)
	case par.Join == lang.JoinAny:
		need = min(1, ran)
	}
	return need
}

// Rejects reports whether verdict asks for changes (on_any_reject applies).
func Rejects(verdict string) bool {
	return verdict == lang.VerdictReject || verdict == lang.VerdictRevise || verdict == lang.VerdictFollowup
}

// BranchResult is how a branch shows in its parallel stage's results (the status comment).
func BranchResult(b *lang.Stage, bsr *model.StageRun) model.GateResult {
	r := model.GateResult{Check: "branch " + b.ID}
	who := "action " + b.Action
	switch b.Type {
	case lang.StageAgent:
		who = "agent " + b.Agent
	case lang.StagePipeline:
		// Whom its child waits for (followBranchChild), else the sub-pipeline.
		who = "the sub-pipeline " + b.Pipeline
		if len(bsr.Results) > 0 && bsr.Results[0].Who != "" && model.BranchPending(bsr.Status) {
			who = bsr.Results[0].Who
		}
	}
	switch {
	case bsr.Status == model.StageSucceeded:
		r.Status = model.GatePass
	case bsr.Status == model.StageSkipped:
		r.Status, r.Optional = model.GatePass, true
	case model.BranchPending(bsr.Status):
		r.Status, r.Who = model.GatePending, who
	default:
		r.Status = model.GateFail
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

// LeaveBranch ends branch stage of run with status where the machinery of its type would
// leave it for a target: a branch has no transitions; the join decides. It reports
// whether stage is a branch (and so was handled).
func (e *Eval) LeaveBranch(run *model.Run, stage *lang.Stage, status model.StageStatus, why string) bool {
	if !e.IsBranch(run, stage) {
		return false
	}
	sr := run.Stages[stage.ID]
	sr.Status, sr.Message, sr.Results = status, why, nil
	if par := run.Stages[sr.Parent]; par != nil {
		par.Deadlines = dropBranchDeadline(par.Deadlines, stage.ID)
	}
	e.Logf("run %s: branch %s of %s %s: %s", run.ID, stage.ID, sr.Parent, status, why)
	return true
}

// CancelBranches cancels the branches of par still open in the run's current entry of
// it: their reports are refused from now on, and their effects in flight forgotten.
func (e *Eval) CancelBranches(run *model.Run, par *lang.Stage, why string) {
	sr := run.Stages[par.ID]
	if sr == nil {
		return
	}
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Parent != par.ID || bsr.ParentAttempt != sr.Attempt || !model.BranchPending(bsr.Status) {
			continue
		}
		bsr.Status, bsr.Message, bsr.Results = model.StageCancelled, "cancelled: "+why, nil
		// What this evaluation asked for the branch is not asked for any more.
		kept := e.Effects[:0]
		for _, eff := range e.Effects {
			if eff.Run == run.ID && eff.Stage == b.ID {
				e.Logf("run %s: %s is not asked for: branch %s is cancelled", run.ID, eff.Key, b.ID)
				continue
			}
			kept = append(kept, eff)
		}
		e.Effects = kept
		for _, it := range run.Intents {
			if it.Stage == b.ID {
				run.Intents = model.DropIntent(run.Intents, it.Key)
				e.Logf("run %s: the outcome of %s asked for at %s is not known; branch %s is cancelled without it", run.ID, it.Key, it.At.UTC().Format("2006-01-02T15:04:05Z07:00"), b.ID)
			}
		}
		e.Logf("run %s: branch %s of %s cancelled: %s", run.ID, b.ID, par.ID, why)
	}
	sr.DropDeadlines(model.DeadlineBranch)
}

// branchEffect returns the branch of parallel stage par whose current effect has key.
func branchEffect(run *model.Run, par *lang.Stage, key string) *lang.Stage {
	for _, b := range par.Branches {
		if !run.At(b.ID) {
			continue
		}
		switch b.Type {
		case lang.StageAgent:
			if agent.DispatchKey(run, b) == key {
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

// ChildFeedback is the feedback of a pipeline branch: the outputs.feedback of the stage
// its child rejected at (followBranchChild), or nil.
func (e *Eval) ChildFeedback(bsr *model.StageRun) any {
	if !Rejects(bsr.Verdict) || bsr.Child == "" {
		return nil
	}
	child := e.RunByID(bsr.Child)
	if child == nil {
		return nil
	}
	if stage, _ := RejectingStage(child); stage != "" {
		return child.Stages[stage].Outputs["feedback"]
	}
	return nil
}

// BranchLedger records the review branches of parallel stage par in l, as review stages:
// those of its last entry that were neither skipped nor cancelled. A branch cancelled once
// the join was met is not required; one that rejected is, so `pr_approvals_met` never
// passes on a review that was given and was not an approval.
//
// When an invalidate_and_restart reaction made the parallel stage itself stale, the
// verdicts of its branches are stale with it (until the stage runs them again).
func BranchLedger(l *model.Ledger, run *model.Run, par *lang.Stage, head string) {
	psr := run.Stages[par.ID]
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Parent != par.ID || bsr.Status == model.StageSkipped || bsr.Status == model.StageCancelled || !model.IsReviewStage(b) {
			continue
		}
		if psr != nil && psr.Status == model.StageStale && psr.Stale != nil && bsr.Verdict != "" {
			view := *bsr
			view.Stale = &model.Stale{At: psr.Stale.At, Why: psr.Stale.Why, Verdict: bsr.Verdict, SHA: bsr.HeadSHA}
			view.Verdict = ""
			bsr = &view
		}
		model.AgentLedger(l, b, bsr, head)
	}
}

// UnblockBranches, after `/pipeline unblock` let a run escalated at parallel stage par go
// on with the same attempt, gives each branch still open what the escalation took from it:
// its timeout, counted from the unblock (escalating dropped the stage's deadlines: the run
// waited for a person, not for time; the stage's own timeout is not armed again, as for
// any stage), and, for a pipeline branch, its child run — cancelled when its parent
// escalated — which a new attempt of the branch starts anew.
func (e *Eval) UnblockBranches(run *model.Run, par *lang.Stage) {
	if par == nil || par.Type != lang.StageParallel {
		return
	}
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
			if c := e.RunByID(bsr.Child); c == nil || c.Status.Final() {
				ended := bsr.Child
				bsr.Attempt++
				bsr.Child, bsr.Outputs, bsr.Verdict = "", nil, ""
				bsr.EnteredAt = e.Now
				e.Logf("run %s: branch %s of %s starts attempt %d: its sub-pipeline run %s ended while the run was escalated", run.ID, b.ID, par.ID, bsr.Attempt, ended)
			}
		}
		if b.Timeout > 0 {
			sr.Deadlines = append(dropBranchDeadline(sr.Deadlines, b.ID), model.Deadline{Kind: model.DeadlineBranch, At: e.Now.Add(b.Timeout), Branch: b.ID})
		}
	}
}
