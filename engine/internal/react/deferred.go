package react

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// An escalated run is not restarted by an invalidate_and_restart reaction: a person decides
// what it does next. The reaction still marks the stages it invalidates stale, and its
// restart is owed: when a person lets the run go on (`/pipeline unblock` or `retry`), it restarts where
// the reaction says, so that an agent's attempt dispatched for an older head — whose report
// may still come — is not what the run goes on with.

// deferredRestart is the stage an invalidate_and_restart reaction of p would have restarted
// run from while it was escalated — one of the stages it invalidates is still stale — or "".
func deferredRestart(p *lang.Pipeline, run *model.Run) string {
	if p == nil {
		return ""
	}
	for i := range p.OnEvents {
		r := &p.OnEvents[i]
		if r.Action != lang.ReactInvalidateAndRestart {
			continue
		}
		for _, id := range r.Invalidate {
			if sr := run.Stages[id]; sr != nil && sr.Status == model.StageStale {
				if r.RestartFrom == "" || r.RestartFrom == "current" {
					return run.Stage
				}
				return r.RestartFrom
			}
		}
	}
	return ""
}

// RestartDeferred restarts run, unblocked by `by`, where a reaction deferred while it was
// escalated says; false when none was deferred.
func RestartDeferred(k Kernel, p *lang.Pipeline, run *model.Run, by string) bool {
	target := deferredRestart(p, run)
	if target == "" || p.Stage(target) == nil {
		return false
	}
	run.Status = model.RunRunning
	run.Message = ""
	restartFrom(k, run, target, fmt.Sprintf("%s; restarting from %s: on_events made results stale while the run was escalated", by, target))
	return true
}
