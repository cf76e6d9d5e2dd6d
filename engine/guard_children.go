package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// The merge guard below a run. The sub-pipelines a run's pipeline stages and pipeline
// branches run are part of the path to its merge: a pipeline stage holds for the guard
// only when its sub-pipeline, as written, has a path from its start to its end on which
// every gate and human stage holds on today's facts, and every gate, human stage and
// sub-pipeline its run passed still holds — the guard of the child run, judged to its end
// rather than to a merge, recursively for grandchildren. A parallel stage holds when
// enough of its branches hold for its join: an agent or action branch as an agent stage
// does (what it did is what the config says to do when it ends), a pipeline branch as a
// pipeline stage. The child judged is the one the run's current attempt of the stage
// started; where there is none (the stage was skipped, or never reached), the
// sub-pipeline is judged as written, on a run that has done nothing yet.
//
// A sub-pipeline that no longer holds sends its owner back to the pipeline (or parallel)
// stage, and the child run itself back to its own first stage that no longer holds: the
// child is taken up again at a new attempt of the stage, so that what it did before that
// stage (an agent's work, say) stands, as it does for a run sent back to a gate. A
// parallel stage keeps the branches that succeeded; only the branch whose child no longer
// holds runs again. Where there is no child to take up, the stage starts a new one.

// childBack is how the sub-pipeline of a pipeline stage or branch was judged: the child
// run the owner's record links to it (nil when none), and the child's own guard plan —
// empty when it holds.
type childBack struct {
	branch *lang.Stage // the branch, for a parallel stage's pipeline branch
	child  *Run
	plan   guardPlan
}

func (c childBack) holds() bool { return c.plan.back == nil && c.plan.why == "" }

// maxGuardDepth bounds the walk down the chain of sub-pipelines, which validate keeps
// acyclic and settings.max_nesting shallow.
const maxGuardDepth = 64

// subHolds reports whether the sub-pipeline of s, a pipeline stage or pipeline branch of
// the guarded run's pipeline, holds to its end on today's facts, judging it once.
func (g *guardCheck) subHolds(s *lang.Stage) bool {
	if c, ok := g.subs[s.ID]; ok {
		return c.holds()
	}
	c := g.judgeSub(s)
	if g.subs == nil {
		g.subs = map[string]childBack{}
	}
	g.subs[s.ID] = c
	return c.holds()
}

func (g *guardCheck) judgeSub(s *lang.Stage) childBack {
	e, run := g.e, g.run
	cp := e.ConfigFor(run).Pipeline(s.Pipeline)
	if cp == nil || g.depth >= maxGuardDepth {
		return childBack{plan: guardPlan{why: fmt.Sprintf("sub-pipeline %q of stage %q cannot be judged", s.Pipeline, s.ID)}}
	}
	child := e.ChildOf(run, s)
	var view Run
	if child != nil {
		view = *child
		if run.VerifiedSHA != "" && run.VerifiedSHA == e.Facts.PR.HeadSHA {
			// The run above verified today's head after its child: a moved head is judged
			// against that, the last verification before the merge.
			view.VerifiedSHA, view.VerifiedBy = "", ""
		}
	} else {
		// The sub-pipeline as written, on a run that has done nothing: what counts is what
		// today's facts give it.
		view = Run{ID: run.ID + "/" + s.ID, Pipeline: cp.Name, ConfigOID: run.ConfigOID, Subject: run.Subject,
			Status: RunRunning, Stages: map[string]*StageRun{}, Context: run.Context, Head: run.Head, HeadSince: run.HeadSince,
			Parent: ParentRef(run.ID, s.ID), Depth: run.Depth + 1}
	}
	plan := e.guardTo(cp, &view, nil, g.depth+1)
	if plan.back == nil && plan.why == "" && child != nil && child.Status != RunCompleted {
		// The walk holds, but the run has not reached its end: the stage did not complete.
		plan.why = fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	}
	return childBack{child: child, plan: plan}
}

// joinHolds reports whether enough branches of parallel stage par hold for its join: an
// agent or action branch holds as its stage would, a pipeline branch when its
// sub-pipeline does; a branch whose condition decidedly does not hold today is skipped.
func (g *guardCheck) joinHolds(par *lang.Stage) bool {
	held, skipped := 0, 0
	for _, b := range par.Branches {
		switch {
		case g.skips(b):
			skipped++
		case b.Type != lang.StagePipeline || g.subHolds(b):
			held++
		}
	}
	return held >= core.JoinNeed(par, len(par.Branches)-skipped)
}

// branchesHold reports whether every pipeline branch of par that the run's record says
// succeeded, at its current attempt of par, still holds.
func (g *guardCheck) branchesHold(par *lang.Stage) bool {
	sr := g.run.Stages[par.ID]
	for _, b := range par.Branches {
		bsr := g.run.Stages[b.ID]
		if b.Type != lang.StagePipeline || bsr == nil || sr == nil || bsr.Parent != par.ID || bsr.ParentAttempt != sr.Attempt {
			continue
		}
		if bsr.Status == StageSucceeded && !g.subHolds(b) {
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
			c.branch = l
		}
		if c.child != nil {
			what += " (run " + c.child.ID + ")"
		}
		plan := guardPlan{back: s, why: fmt.Sprintf("%s does not hold: %s", what, c.plan.why)}
		if c.child != nil && c.plan.back != nil {
			plan.below = &c
		}
		return plan
	}
	return guardPlan{back: s, why: fmt.Sprintf("stage %q does not hold on today's facts; running it again", s.ID)}
}

// goBack sends run, which stands at from, back as plan says: to plan.back, and the child
// below it back to its own stage that no longer holds, taken up by the new attempt.
func (e *eval) goBack(p *lang.Pipeline, run *Run, from string, plan guardPlan) {
	e.enter(run, from, plan.back.ID, plan.why)
	if plan.mustHold {
		// The guard could not take the stage's condition for a skip (it reads the run's
		// record, or holds today): the stage must hold, not be skipped again.
		run.Stages[plan.back.ID].ConditionChecked = true
	}
	c := plan.below
	if c == nil || c.child == nil || c.plan.back == nil {
		return
	}
	link := run.Stages[plan.back.ID]
	if c.branch != nil {
		keep := map[string]bool{}
		for _, b := range plan.back.Branches {
			if bsr := run.Stages[b.ID]; b != c.branch && bsr != nil && bsr.Parent == plan.back.ID &&
				bsr.ParentAttempt == link.Attempt-1 && bsr.Status == StageSucceeded {
				keep[b.ID] = true
			}
		}
		e.startBranches(p, run, plan.back, keep)
		link = run.Stages[c.branch.ID]
		if link == nil || link.Status != StageWaiting {
			return // the branch was skipped this time: the child is not taken up
		}
	}
	link.Child, c.child.ParentAttempt = c.child.ID, link.Attempt
	if cp := e.Cfg.PipelineFor(c.child); cp != nil {
		e.goBack(cp, c.child, c.child.Stage, c.plan)
	}
}
