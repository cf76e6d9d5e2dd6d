package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/internal/condition"
	"github.com/org/pipeline-action/engine/stage/parallel"

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

// GuardMerge runs the merge guard, sub-pipelines included, before the merge of s; where
// it sends the run back is kept for the type's stage.Back.
func (c *stageContext) GuardMerge(s *lang.Stage) (why string, back bool) {
	plan := c.e.guardChain(c.p, c.run, s)
	if plan.back != nil {
		c.back = &plan
		return plan.why, true
	}
	return plan.why, false
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

// The merge guard below a run. A sub-pipeline is part of the path to the merge: a pipeline
// stage (or pipeline branch) holds only when the guard of its child run, judged to the
// child's end rather than to a merge, holds — recursively for grandchildren. The child
// judged is the one the run's current attempt started; with none, the sub-pipeline is
// judged as written on a run that has done nothing (guardwalk.StandIn), so a forged
// record of a passed stage grants nothing. A child that no longer holds is taken back to
// its own first stage that no longer holds, under a new attempt of its owner's stage: what
// it did before that stage stands, as for a run sent back to a gate.

// childBack is how the sub-pipeline of a pipeline stage or branch was judged: the child
// run linked to it (nil when none), and the child's own plan — empty when it holds.
type childBack struct {
	branch   *lang.Stage // set for a parallel stage's pipeline branch
	mustHold bool        // the branch may not be skipped by its condition again
	again    []string    // the other pipeline branches that no longer hold: they run again too
	child    *model.Run
	plan     guardPlan
}

func (c childBack) holds() bool { return c.plan.back == nil && c.plan.why == "" }

// SubHolds reports whether the sub-pipeline of s, a pipeline stage or branch of the
// guarded run's pipeline, holds to its end on today's facts, judging it once.
func (g *guardCheck) SubHolds(s *lang.Stage) bool {
	c, ok := g.subs[s.ID]
	if !ok {
		c = g.judgeSub(s)
		g.subs[s.ID] = c
	}
	return c.holds()
}

func (g *guardCheck) judgeSub(s *lang.Stage) childBack {
	e, run := g.e, g.run
	cp := e.ConfigFor(run).Pipeline(s.Pipeline)
	if cp == nil || g.depth >= 64 { // validate keeps the chain acyclic; this bounds a forged one
		return childBack{plan: guardPlan{why: fmt.Sprintf("sub-pipeline %q of stage %q cannot be judged", s.Pipeline, s.ID)}}
	}
	child, view := e.tree().ChildOf(run, s), guardwalk.StandIn(run, s, cp)
	if child != nil {
		v := *child
		if run.VerifiedSHA != "" && run.VerifiedSHA == e.Facts.PR.HeadSHA {
			v.VerifiedSHA, v.VerifiedBy = "", "" // verified after its child: the last verification
		}
		view = &v
	}
	plan := e.guardTo(cp, view, nil, g.depth+1)
	if plan.back == nil && plan.why == "" && child != nil && child.Status != model.RunCompleted {
		plan.why = fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	}
	return childBack{child: child, plan: plan}
}

func (g *guardCheck) JoinHolds(par *lang.Stage) bool {
	return guardwalk.JoinHolds(par, g.Skips, func(b *lang.Stage) bool { return g.unrun(par, b) }, g.SubHolds)
}

// unrun reports whether branch b of par was skipped by its condition at the run's current
// entry of par, and that condition, decided as the run's entry of par decides it (the
// run's env, standing at par) on today's facts, holds now or cannot be decided: what the
// branch does was never done, so it must run, not be counted as if it had.
func (g *guardCheck) unrun(par, b *lang.Stage) bool {
	sr, bsr := g.run.Stages[par.ID], g.run.Stages[b.ID]
	if b.Condition == nil || sr == nil || bsr == nil || bsr.Status != model.StageSkipped ||
		bsr.Parent != par.ID || bsr.ParentAttempt != sr.Attempt {
		return false
	}
	at := *g.run
	at.Stage = par.ID
	holds, _, err := g.e.conditionHolds(g.e.Cfg.PipelineFor(g.run), &at, b.Condition)
	return holds || err != nil
}

// unrunBranches are the branches of par that must run (unrun).
func (g *guardCheck) unrunBranches(par *lang.Stage) []string {
	var ids []string
	for _, b := range par.Branches {
		if g.unrun(par, b) {
			ids = append(ids, b.ID)
		}
	}
	return ids
}

// BranchesHold reports whether every pipeline branch of par that succeeded still holds.
func (g *guardCheck) BranchesHold(par *lang.Stage) bool {
	for _, b := range guardwalk.SucceededBranches(g.run, par) {
		if !g.SubHolds(b) {
			return false
		}
	}
	return true
}

// subBack is the plan that sends the run back to s, a pipeline or parallel stage whose
// sub-pipeline (or one of whose pipeline branches) does not hold, with its child.
func (g *guardCheck) subBack(s *lang.Stage) guardPlan {
	links := []*lang.Stage{s}
	if s.Type == lang.StageParallel {
		links = s.Branches
	}
	for _, l := range links {
		c, ok := g.subs[l.ID]
		if !ok || c.holds() {
			continue
		}
		what := fmt.Sprintf("the sub-pipeline %q of stage %q", l.Pipeline, s.ID)
		if l != s {
			what = fmt.Sprintf("the sub-pipeline %q of branch %q of stage %q", l.Pipeline, l.ID, s.ID)
			c.branch, c.mustHold = l, l.Condition != nil && !g.Skips(l)
		}
		if c.child != nil {
			what += " (run " + c.child.ID + ")"
		}
		if l != s {
			// Every branch that no longer holds runs again in this one round: taken up one a
			// round, a join would be met and broken again until the loop limit stops the run.
			for _, o := range links {
				if oc, ok := g.subs[o.ID]; ok && o != l && !oc.holds() {
					c.again = append(c.again, o.ID)
				}
			}
		}
		return guardPlan{back: s, why: fmt.Sprintf("%s does not hold: %s", what, c.plan.why), below: &c, unrun: g.unrunBranches(s)}
	}
	if ids := g.unrunBranches(s); s.Type == lang.StageParallel && len(ids) > 0 {
		return guardPlan{back: s, unrun: ids, why: fmt.Sprintf("branch %s of stage %q was skipped by its condition, which holds on today's facts (or cannot be decided); running it",
			strings.Join(ids, ", "), s.ID)}
	}
	return guardPlan{back: s, why: fmt.Sprintf("stage %q does not hold on today's facts; running it again", s.ID)}
}

// goBack sends run, which stands at from, back as plan says: to plan.back, and the child
// below it back to its own stage that no longer holds, taken up by the new attempt (of a
// parallel stage, the branches that succeeded keep their result).
func (e *eval) goBack(p *lang.Pipeline, run *model.Run, from string, plan guardPlan) {
	e.enter(run, from, plan.back.ID, plan.why)
	if plan.mustHold {
		// Its condition is not the guard's to skip: the stage must hold, not be skipped again.
		run.Stages[plan.back.ID].ConditionChecked = true
	}
	c := plan.below
	if c == nil {
		if len(plan.unrun) > 0 {
			e.apply(p, run, plan.back, parallel.Start(e.context(p, run), run, plan.back, guardwalk.Kept(run, plan.back, nil), mustRun(plan.unrun)))
		}
		return
	}
	link := run.Stages[plan.back.ID]
	if c.branch != nil {
		keep, must := guardwalk.Kept(run, plan.back, c.branch), mustRun(plan.unrun)
		for _, id := range c.again {
			delete(keep, id)
		}
		if c.mustHold {
			must[c.branch.ID] = true
		}
		if e.apply(p, run, plan.back, parallel.Start(e.context(p, run), run, plan.back, keep, must)); run.Status.Final() {
			return
		}
		if link = run.Stages[c.branch.ID]; link == nil || link.Status != model.StageWaiting {
			return // the branch is skipped this time: its child is not taken up
		}
	}
	if c.child == nil || c.plan.back == nil {
		return // nothing to take up: the stage starts a new child
	}
	link.Child, c.child.ParentAttempt = c.child.ID, link.Attempt
	if cp := e.Cfg.PipelineFor(c.child); cp != nil {
		e.goBack(cp, c.child, c.child.Stage, c.plan)
	}
}

// mustRun is the set of ids: branches the guard found must hold, whose condition the new
// entry of their stage does not decide again (else it might skip them again, and the run
// go round until the loop limit stops it).
func mustRun(ids []string) map[string]bool {
	must := map[string]bool{}
	for _, id := range ids {
		must[id] = true
	}
	return must
}
