package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// A closed pull request ends its runs, whatever events were lost. GitHub drops the
// pending job of a concurrency group and a job can fail, so the closed event may never
// be handled: the next event on the pull request — a late check, a comment, the sweep —
// finds it closed and ends what is still open. Closed without a merge, the runs are
// cancelled; merged outside them, completed. A run whose own merge the facts show done is
// left to its merge stage, which completes it; runs of pipelines that start on the closed
// event itself run on a closed pull request by design and are left alone.

// closedSubject ends the open runs of the subject pull request once it is closed.
func (e *eval) closedSubject() {
	if e.Issue != nil || e.Facts.PR == nil || e.Facts.PR.State == model.PROpen {
		return
	}
	pr := e.Facts.PR
	for _, run := range e.St.Runs {
		if run.Status.Final() || run.Parent != "" { // a child ends with its parent
			continue
		}
		p := e.Cfg.PipelineFor(run)
		if p == nil || p.Trigger.Event == "pull_request.closed" {
			continue
		}
		switch {
		case pr.State == model.PRClosed:
			e.finish(run, model.RunCancelled, TargetCancelled, "the pull request was closed")
		case e.ownMerge(p, run) != nil || e.childMerged(run):
		default:
			by := pr.MergedBy
			if by == "" {
				by = "someone"
			}
			e.finish(run, model.RunCompleted, lang.TargetComplete, fmt.Sprintf("the pull request was merged by %s, outside this run", by))
		}
	}
}
