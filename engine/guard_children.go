package engine

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/guardwalk"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

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
