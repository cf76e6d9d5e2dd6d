package parallel

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// join applies the join of par to its branches.
func join(c stage.Context, run *model.Run, par *lang.Stage) stage.Decision {
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
		case lang.Rejects(bsr.Verdict):
			rejected++
			rejecting = append(rejecting, b.ID)
		default:
			failing = append(failing, b.ID)
		}
		results = append(results, BranchResult(b, bsr))
	}
	sr.Results = results
	ran := len(par.Branches) - skipped
	need := JoinNeed(par, ran)
	note := graph.JoinNote(par)
	switch {
	case ok >= need:
		why := fmt.Sprintf("%s met: %d of %d %s succeeded", note, ok, ran, model.Plural(ran, "branch", "branches"))
		if skipped > 0 {
			why += fmt.Sprintf(", %d skipped", skipped)
		}
		Cancel(c, run, par, why)
		return stage.Leave(model.StageSucceeded, stage.NextOf(c.Pipeline(), par, par.OnComplete), why)
	case ok+open < need:
		var parts []string
		if len(rejecting) > 0 {
			parts = append(parts, fmt.Sprintf("%s rejected", strings.Join(rejecting, ", ")))
		}
		if len(failing) > 0 {
			parts = append(parts, fmt.Sprintf("%s failed", strings.Join(failing, ", ")))
		}
		why := fmt.Sprintf("%s can no longer be met: %s", note, strings.Join(parts, "; "))
		Cancel(c, run, par, why)
		if rejected > 0 && par.OnAnyReject != nil {
			return stage.FollowVerdict(par.OnAnyReject, RuleOnAnyReject, why)
		}
		sr.Message = why
		return stage.Leave(model.StageFailed, lang.TargetFail, why)
	}
	sr.Status = model.StageWaiting
	run.Status = model.RunWaiting
	if acting > 0 {
		run.Status = model.RunRunning
	}
	return stage.Stay()
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

// BranchResult is how a branch shows in its parallel stage's results (the status comment).
func BranchResult(b *lang.Stage, bsr *model.StageRun) model.GateResult {
	r := model.GateResult{Check: "branch " + b.ID}
	who := "action " + b.Action
	switch b.Type {
	case lang.StageAgent:
		who = "agent " + b.Agent
	case lang.StagePipeline:
		// Whom its child waits for, as the branch's first result names it, else the
		// sub-pipeline.
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
