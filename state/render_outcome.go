package state

import (
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// loopVerdicts are the verdicts whose rule usually sends the run back to an earlier stage:
// the stage that reported one did its work, and the status says which way it went.
var loopVerdicts = map[string]bool{lang.VerdictFollowup: true, lang.VerdictRevise: true, lang.VerdictReject: true}

// terminals are the targets that end or stop a run rather than route it.
var terminals = map[string]bool{lang.TargetFail: true, lang.TargetEscalate: true, lang.TargetComplete: true, engine.TargetCancelled: true}

// stageOutcome is the status cell of stage id of run: what happened there when that says
// more than its bare status — a verdict that looped back (↩️ revise → `implement`), a gate
// that routed the run through its on_fail on purpose (↪️ → `maintainer`).
func stageOutcome(p *lang.Pipeline, run *model.Run, id string, sr *model.StageRun) string {
	left := sr.Status == model.StageSucceeded || sr.Status == model.StageFailed
	if unfinished(sr.Status) && id != run.Stage {
		// The run went elsewhere before the stage finished (the merge guard took it back, a
		// command moved it): it is not waiting there any more.
		if to := lastExit(run, id); to != "" && !terminals[to] {
			return "↩️ left → " + code(to)
		}
	}
	if !left {
		return stageStatus(sr)
	}
	to := lastExit(run, id)
	if to == "" || terminals[to] {
		return stageStatus(sr)
	}
	if loopVerdicts[sr.Verdict] {
		return "↩️ " + cell(sr.Verdict) + " → " + code(to)
	}
	if s := stageOf(p, id); s != nil && s.Type == lang.StageGate && sr.Status == model.StageFailed {
		return "↪️ on_fail → " + code(to)
	}
	return stageStatus(sr)
}

// unfinished says the stage was entered and has not ended.
func unfinished(st model.StageStatus) bool {
	return st == model.StageWaiting || st == model.StageActing || st == model.StageRetrying
}

// lastExit is where run went the last time it left stage id, as its history tells; "" when
// the history no longer holds it.
func lastExit(run *model.Run, id string) string {
	for i := len(run.History) - 1; i >= 0; i-- {
		if h := run.History[i]; h.From == id && h.To != id {
			return h.To
		}
	}
	return ""
}

func stageOf(p *lang.Pipeline, id string) *lang.Stage {
	if p == nil {
		return nil
	}
	return p.Stage(id)
}
