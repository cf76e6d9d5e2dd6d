package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// The merge guard across sub-pipelines. A merge inside a child run needs, besides a path
// of holding gates from the child pipeline's start to the merge (guard), a path of
// holding gates in every ancestor from its pipeline's start to the pipeline stage that
// runs the next run of the chain, and every gate an ancestor passed must still hold: a
// sub-pipeline never lets a merge skip a gate of the pipeline that runs it. The chain is
// read from the state, so it is checked against the config too: each link must be a
// pipeline stage of the parent's pipeline that runs the child's pipeline, at the attempt
// that started it, and the top of the chain must be a pipeline with a trigger (a
// trigger-less pipeline runs only as a sub-pipeline, and its gates alone may lean on its
// parent's). A merge in a parent after a child needs the parent's own gates: a gate
// inside the child counts for merges inside the child only.
//
// A merge inside the child of a parallel stage's pipeline branch is never made: its
// sibling branches have not been joined yet, and a merge belongs after the join.
//
// A moved head is judged as in one run: against the innermost run of the chain that
// passed a gate (the last verification before the merge); an ancestor whose gate no
// longer holds goes back to it, which ends the chain below it.

// guardChain is the guard of run's merge at stage merge of p, sub-pipelines included.
func (e *eval) guardChain(p *lang.Pipeline, run *Run, merge *lang.Stage) guardPlan {
	plan := e.guard(p, run, merge)
	if plan.back != nil || plan.why != "" {
		return plan
	}
	if run.Parent == "" {
		if p.Trigger.Event == "" {
			return guardPlan{why: fmt.Sprintf("run %s of pipeline %q, which has no trigger, has no parent run; the merge cannot be verified", run.ID, p.Name)}
		}
		return plan
	}
	verified := run.VerifiedSHA != ""
	child, cp := run, p
	for n := 0; child.Parent != ""; n++ {
		parent, stageID := e.ParentOf(child)
		if parent == nil || n > 64 {
			return guardPlan{why: fmt.Sprintf("the parent run of run %s is not in the state; the merge cannot be verified", child.ID)}
		}
		pp := e.Cfg.PipelineFor(parent)
		// link is the stage or branch that started the child; stage is the stage of the
		// parent it belongs to (the parallel stage of a branch), the guard's target.
		var link, stage *lang.Stage
		if pp != nil {
			link, stage = pp.Stage(stageID), pp.Stage(stageID)
			if link == nil {
				stage = pp.Stage(parent.Stage)
				link = core.BranchIn(stage, stageID)
			}
		}
		sr := parent.Stages[stageID]
		switch {
		case pp == nil:
			return guardPlan{why: fmt.Sprintf("pipeline %q of the parent run %s is not in the config; the merge cannot be verified", parent.Pipeline, parent.ID)}
		case link == nil || link.Type != lang.StagePipeline || link.Pipeline != cp.Name:
			return guardPlan{why: fmt.Sprintf("run %s claims stage %q of run %s as its parent, which does not run pipeline %q; the merge cannot be verified", child.ID, stageID, parent.ID, cp.Name)}
		case parent.Status.Final() || parent.Status == RunEscalated || !e.StandsAt(parent, stageID) || sr == nil || sr.Child != child.ID || sr.Attempt != child.ParentAttempt:
			return guardPlan{why: fmt.Sprintf("the parent run %s does not stand at the attempt of stage %q that started run %s; the merge cannot be verified", parent.ID, stageID, child.ID)}
		case link != stage:
			// The other branches of the parallel stage are still to be joined: a merge
			// belongs after the join (as an action branch may not merge).
			return guardPlan{why: fmt.Sprintf("run %s runs branch %q of parallel stage %q of run %s: a merge belongs after the join, not inside a branch; the merge is not made", child.ID, stageID, stage.ID, parent.ID)}
		}
		view := *parent
		if verified {
			view.VerifiedSHA, view.VerifiedBy = "", "" // a later gate verified the head
		}
		up := e.guard(pp, &view, stage)
		if up.back != nil {
			why := fmt.Sprintf("before the merge in run %s: %s", run.ID, up.why)
			up.why = why
			e.goBack(pp, parent, parent.Stage, up) // its other children are cancelled (reapChildren)
			return guardPlan{why: fmt.Sprintf("the parent run %s went back to gate %q: %s", parent.ID, up.back.ID, up.why)}
		}
		if up.why != "" {
			return guardPlan{why: fmt.Sprintf("parent run %s: %s", parent.ID, up.why)}
		}
		verified = verified || parent.VerifiedSHA != ""
		child, cp = parent, pp
	}
	if cp.Trigger.Event == "" {
		return guardPlan{why: fmt.Sprintf("the top run %s of the chain is a run of sub-pipeline %q, which has no trigger; the merge cannot be verified", child.ID, cp.Name)}
	}
	return guardPlan{}
}
