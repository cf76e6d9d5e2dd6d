package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/guardwalk"
	"github.com/org/pipeline-action/engine/lang"
)

// The merge guard up the chain of sub-pipelines. A merge inside a child run needs, besides
// a path of holding gates from the child pipeline's start to the merge (guard), a path of
// holding gates in every ancestor from its pipeline's start to the pipeline stage that
// runs the next run of the chain, and every gate an ancestor passed must still hold: a
// sub-pipeline never lets a merge skip a gate of the pipeline that runs it. The chain is
// read from the state, so each link is checked against the config (guardwalk.Up), and the
// top of the chain must be a pipeline with a trigger (a trigger-less pipeline runs only as
// a sub-pipeline, and its gates alone may lean on its parent's). A merge in a parent after
// a child re-checks the child the other way, down.
//
// A moved head is judged as in one run: against the innermost run of the chain that
// passed a gate (the last verification before the merge); an ancestor whose gate no
// longer holds goes back to it, which ends the chain below it.

// guardChain is the guard of run's merge at stage merge of p, sub-pipelines included.
func (e *eval) guardChain(p *lang.Pipeline, run *model.Run, merge *lang.Stage) guardPlan {
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
		parent, pp, stage, why := guardwalk.Up(e.tree(), child, cp, n)
		if why != "" {
			return guardPlan{why: why}
		}
		view := *parent
		if verified {
			view.VerifiedSHA, view.VerifiedBy = "", "" // a later gate verified the head
		}
		up := e.guard(pp, &view, stage)
		if up.back != nil {
			back := up
			back.why = fmt.Sprintf("before the merge in run %s: %s", run.ID, up.why)
			e.goBack(pp, parent, parent.Stage, back) // its other children are cancelled (runtree.Reap)
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
