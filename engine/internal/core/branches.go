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

// GuardTarget is the stage the guard looks for a path to when merge is a branch: its
// parallel stage.
func GuardTarget(p *lang.Pipeline, merge *lang.Stage) *lang.Stage {
	if p.Stage(merge.ID) != nil {
		return merge
	}
	for _, s := range p.Stages {
		if BranchOf(s, merge.ID) != nil {
			return s
		}
	}
	return merge
}
