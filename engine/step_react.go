package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// react applies run's reaction (on_events of pipeline p) to the event of input in.
func (e *eval) react(p *lang.Pipeline, run *model.Run, in model.Input) {
	r := p.Reaction(in.Event)
	switch {
	case r == nil:
	case r.Action == lang.ReactCancel && e.ownMerge(p, run) != nil:
		// The closed event of the run's own merge, whose state was not saved: the
		// merge stage ends the run (completed) when the run is advanced below.
		if m := e.ownMerge(p, run); m.ID != run.Stage {
			e.enter(run, run.Stage, m.ID, fmt.Sprintf("the pull request was merged by %s; the state after the merge was not saved", e.RunPR(run).MergedBy))
		}
	case r.Action == lang.ReactCancel && e.childMerged(run):
		e.Logf("run %s: the pull request was merged by its sub-pipeline's run; not cancelled", run.ID)
	case r.Action == lang.ReactCancel:
		e.finish(run, model.RunCancelled, TargetCancelled, "cancelled on "+in.Event)
	case r.Action == lang.ReactNotify:
		e.reactNotify(p, run, r, in)
	case r.Action == lang.ReactInvalidateAndRestart:
		e.reactRestart(p, run, r, in)
	case r.Action == lang.ReactWakeAgent:
		e.reactWake(p, run, r, in)
	}
}
