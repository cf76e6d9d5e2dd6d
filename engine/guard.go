package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/condition"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/guardwalk"
	"github.com/org/pipeline-action/engine/lang"
)

// The merge guard. A merge is irreversible, so its right to happen is derived afresh
// at the moment of the merge from the pipeline as written and today's facts, never
// from what the stored state says was passed: a state that was forged, or that a lost
// event left behind, can hold a merge back but never let one through.

// guardPlan is what the guard found: whether the merge is justified, and otherwise
// the gate the run goes back to and why; below, the child run under back that goes back
// too, and mustHold, that the run may not skip back by its condition again.
type guardPlan struct {
	back     *lang.Stage
	why      string
	below    *childBack
	mustHold bool
	unrun    []string // branches of back skipped by a condition that may hold now: they run
}

// guard decides whether the run's merge at stage merge may go ahead. The merge is
// justified when the pipeline, as written, has a path from its first stage to merge on
// which every gate left through its pass transition holds on today's facts, and every
// gate left through on_fail decidedly fails on them; human stages, sub-pipelines and
// parallel stages are judged as gates are (HumanHolds), and the
// transitions of other stages are free: they are what the config says to do when an
// action ends. On top of that, every gate, human stage and sub-pipeline the run passed or
// skipped must still hold, and a moved head sends the run back to the first gate whose
// verdict depends on the head.
func (e *eval) guard(p *lang.Pipeline, run *model.Run, merge *lang.Stage) guardPlan {
	// A merge branch of a parallel stage is reached through its stage.
	return e.guardTo(p, run, core.GuardTarget(p, merge), 0)
}

// guardTo is the guard of run on its way to merge, a stage of p, or with merge nil to the
// end of p (a sub-pipeline's run, judged for the merge of a run above it); depth counts
// the sub-pipelines above.
func (e *eval) guardTo(p *lang.Pipeline, run *model.Run, merge *lang.Stage, depth int) guardPlan {
	// Gates read the run's approvals ledger and env as they do when the run reaches them.
	defer e.withRun(p, run)()
	g := &guardCheck{e: e, run: run, held: map[string][]model.GateResult{}, failing: map[string]bool{}, depth: depth, subs: map[string]childBack{}}
	order, frontier, justified := guardwalk.Paths(p, merge, g.recheck)
	pr := e.Facts.PR
	// VerifiedSHA is the head of the run's own pull request, where its gates passed; the
	// gates on the way to a merge of another of a multi-PR run's pull requests are all
	// evaluated afresh on that pull request's facts above.
	g.moved = run.VerifiedSHA != "" && run.VerifiedSHA != pr.HeadSHA && e.RunPR(run) == pr
	if !justified {
		if len(frontier) == 0 {
			if merge == nil {
				return guardPlan{why: fmt.Sprintf("the end of pipeline %q cannot be reached from its start as written", p.Name)}
			}
			return guardPlan{why: fmt.Sprintf("stage %q cannot be reached from the start of pipeline %q as written; the merge cannot be verified", merge.ID, p.Name)}
		}
		return g.back(frontier[0])
	}
	// The gates, human stages and sub-pipelines this run passed hold too, whatever other
	// path the config allows.
	for _, s := range p.Stages {
		sr := run.Stages[s.ID]
		if merge != nil && s.ID == merge.ID || sr == nil {
			continue
		}
		if sr.Status == model.StageSkipped && s.Condition != nil && !g.Skips(s) {
			// Skipped while its condition did not hold, and it may hold now: what the stage
			// does (an agent's review, a sub-pipeline) was never done, so it is run, not judged
			// as if it had been.
			plan := g.back(s)
			plan.below, plan.why = nil, fmt.Sprintf("stage %q was skipped by its condition, which may hold on today's facts; running it", s.ID)
			return plan
		}
		if gu, ok := stageTypes[s.Type].t.(stage.Guarded); ok && !gu.StillHolds(g, s, sr) {
			return g.back(s)
		}
	}
	if s := guardwalk.FirstHeadDependent(order); g.moved && s != nil {
		return g.back(s)
	}
	return guardPlan{}
}

// guardCheck is one judgement of the merge guard: the gates found not to hold, with
// their results, and those that decidedly fail.
type guardCheck struct {
	e       *eval
	run     *model.Run
	held    map[string][]model.GateResult // gate id -> results, for gates that do not hold
	failing map[string]bool               // gates that decidedly fail
	moved   bool                          // the head moved since the run's gates passed
	depth   int                           // how many sub-pipelines deep run is below the merging run
	subs    map[string]childBack          // pipeline stage or branch id -> its sub-pipeline's judgement
}

// recheck is the verdict of s's type on s; the guard takes the transitions of a type it
// does not know as free.
func (g *guardCheck) recheck(s *lang.Stage) stage.Verdict {
	if gu, ok := stageTypes[s.Type].t.(stage.Guarded); ok {
		return gu.Recheck(g, s)
	}
	return stage.Free
}

// skips reports whether the condition of s decidedly does not hold today, so that the
// run skips s.
func (g *guardCheck) Skips(s *lang.Stage) bool {
	if s.Condition == nil {
		return false
	}
	skips, needsFiles := condition.GuardSkips(s.Condition, g.e.Facts)
	g.e.NeedsFiles = g.e.NeedsFiles || needsFiles
	return skips
}

// Holds reports whether gate s holds on today's facts, evaluating it once.
func (g *guardCheck) Holds(s *lang.Stage) bool {
	if _, bad := g.held[s.ID]; bad {
		return false
	}
	results, blocked, failed := conditions(g.e, s)
	if blocked {
		g.held[s.ID], g.failing[s.ID] = results, failed
		return false
	}
	return true
}

// Failing reports whether s, found not to hold, decidedly fails.
func (g *guardCheck) Failing(s *lang.Stage) bool { return g.failing[s.ID] }

// back is the plan that sends the run back to s, which does not hold, and why.
func (g *guardCheck) back(s *lang.Stage) guardPlan {
	plan := g.backTo(s)
	plan.mustHold = s.Condition != nil && !g.Skips(s)
	return plan
}

func (g *guardCheck) backTo(s *lang.Stage) guardPlan {
	if s.Type == lang.StagePipeline || s.Type == lang.StageParallel {
		return g.subBack(s)
	}
	return guardPlan{back: s, why: guardwalk.Why(g.e.Eval, g.run, s, g.moved, g.held[s.ID])}
}

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
