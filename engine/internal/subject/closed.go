package subject

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// targetCancelled is the pseudo-target history shows when a run is cancelled.
const targetCancelled = "cancelled"

// Closed ends the open runs of the subject pull request once it is closed, whatever events
// were lost. GitHub drops the pending job of a concurrency group and a job can fail, so the
// closed event may never be handled: the next event on the pull request — a late check, a
// comment, the sweep — finds it closed and ends what is still open. Closed without a merge,
// the runs are cancelled; merged outside them, completed. A run whose own merge the facts
// show done is left to its merge stage, which completes it; runs of pipelines that start on
// the closed event itself run on a closed pull request by design and are left alone.
func (pullRequest) Closed(k Kernel) {
	pr := k.Scope().Facts.PR
	if pr == nil || pr.State == model.PROpen {
		return
	}
	for _, run := range k.Runs() {
		if run.Status.Final() || run.Parent != "" { // a child ends with its parent
			continue
		}
		p := k.Pipeline(run)
		if p == nil || p.Trigger.Event == "pull_request.closed" {
			continue
		}
		switch {
		case pr.State == model.PRClosed:
			k.Finish(run, model.RunCancelled, targetCancelled, "the pull request was closed")
		case k.MergedByRun(p, run):
		default:
			by := pr.MergedBy
			if by == "" {
				by = "someone"
			}
			k.Finish(run, model.RunCompleted, lang.TargetComplete, fmt.Sprintf("the pull request was merged by %s, outside this run", by))
		}
	}
}
