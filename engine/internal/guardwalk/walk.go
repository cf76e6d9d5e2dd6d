// Package guardwalk is the part of the merge guard that needs nothing but the pipeline as
// written and a verdict per stage: the walk from a pipeline's start to its merge (or its
// end, for a sub-pipeline), the join of a parallel stage's branches as the guard counts
// it, and the records the guard reads of a run below the one that merges. Package engine
// judges each stage (gates and human stages on today's facts, sub-pipelines recursively)
// and acts on what the walk finds.
package guardwalk

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/runtree"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// Paths walks p breadth-first from its first stage, in config order within a level,
// through the transitions the verdicts allow: order is the stages reached, in the order
// reached; frontier the stages the walk stopped at; justified whether it reached merge —
// or, with merge nil, the end of p (`complete`).
func Paths(p *lang.Pipeline, merge *lang.Stage, recheck func(*lang.Stage) stage.Verdict) (order, frontier []*lang.Stage, justified bool) {
	index := map[string]int{}
	for i, s := range p.Stages {
		index[s.ID] = i
	}
	seen := map[string]bool{p.Stages[0].ID: true}
	queue := []int{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		s := p.Stages[i]
		order = append(order, s)
		if merge != nil && (s == merge || s.ID == merge.ID) {
			justified = true
			continue
		}
		free, pass, fail := GuardEdges(p, i)
		switch recheck(s) {
		case stage.Skips:
			free = append(free, s.SkipTo)
		case stage.Holds:
			free = append(free, pass...)
		case stage.Fails:
			free = append(free, fail...)
			frontier = append(frontier, s)
		case stage.Stops:
			frontier = append(frontier, s)
		}
		for _, t := range free {
			if merge == nil && t == lang.TargetComplete {
				justified = true
			}
			j, ok := index[t]
			if ok && !seen[t] {
				seen[t] = true
				queue = append(queue, j)
			}
		}
	}
	return order, frontier, justified
}

// JoinHolds reports whether enough branches of parallel stage par hold for its join: an
// agent or action branch holds as its stage would (what it did is what the config says to
// do when it ends), a pipeline branch when sub says its sub-pipeline does; a branch that
// skips (its condition decidedly does not hold today) is not counted; a branch the run
// skipped by a condition that may hold today (unrun) never ran, so it does not hold.
func JoinHolds(par *lang.Stage, skips, unrun, sub func(*lang.Stage) bool) bool {
	held, skipped := 0, 0
	for _, b := range par.Branches {
		switch {
		case unrun(b):
		case skips(b):
			skipped++
		case b.Type != lang.StagePipeline || sub(b):
			held++
		}
	}
	return held >= parallel.JoinNeed(par, len(par.Branches)-skipped)
}

// SucceededBranches are the pipeline branches of par that run's record says succeeded at
// its current attempt of par: each must still hold at the merge.
func SucceededBranches(run *model.Run, par *lang.Stage) []*lang.Stage {
	var out []*lang.Stage
	sr := run.Stages[par.ID]
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if b.Type == lang.StagePipeline && sr != nil && bsr != nil && bsr.Parent == par.ID &&
			bsr.ParentAttempt == sr.Attempt && bsr.Status == model.StageSucceeded {
			out = append(out, b)
		}
	}
	return out
}

// Kept are the branches of par that keep their result when run, sent back by the guard
// because of branch again, has just entered par anew: those that succeeded at the entry
// before, but again.
func Kept(run *model.Run, par, again *lang.Stage) map[string]bool {
	keep := map[string]bool{}
	attempt := run.Stages[par.ID].Attempt - 1
	for _, b := range par.Branches {
		if bsr := run.Stages[b.ID]; b != again && bsr != nil && bsr.Parent == par.ID &&
			bsr.ParentAttempt == attempt && bsr.Status == model.StageSucceeded {
			keep[b.ID] = true
		}
	}
	return keep
}

// StandIn is the run the guard judges sub-pipeline cp of stage s of run on when no child
// of run's current attempt of s exists (s was skipped, or never run): a run that has done
// nothing, so that only today's facts count.
func StandIn(run *model.Run, s *lang.Stage, cp *lang.Pipeline) *model.Run {
	return &model.Run{ID: run.ID + "/" + s.ID, Pipeline: cp.Name, ConfigOID: run.ConfigOID, Subject: run.Subject,
		Status: model.RunRunning, Stages: map[string]*model.StageRun{}, Context: run.Context, Head: run.Head,
		HeadSince: run.HeadSince, Parent: model.ParentRef(run.ID, s.ID), Depth: run.Depth + 1}
}

// FirstHeadDependent is the first gate of order whose verdict may change when the head
// moves, or nil.
func FirstHeadDependent(order []*lang.Stage) *lang.Stage {
	for _, s := range order {
		if s.Type == lang.StageGate && HeadDependent(s) {
			return s
		}
	}
	return nil
}

// GuardEdges returns the targets stage i of p may move to. For a gate: pass is the
// target of its pass transition, fail those of its fail transitions; for a human stage, a
// pipeline stage and a parallel stage: pass is the target of on_complete (a sub-pipeline's
// end, a join met, are judged as a gate's pass is). free holds every other target (for any
// other stage, all of them).
func GuardEdges(p *lang.Pipeline, i int) (free, pass, fail []string) {
	s := p.Stages[i]
	switch s.Type {
	case lang.StageGate, lang.StageHuman, lang.StagePipeline, lang.StageParallel:
	default:
		return lang.Successors(p, i), nil, nil
	}
	next := lang.TargetComplete
	if i+1 < len(p.Stages) && p.Stages[i+1] != nil {
		next = p.Stages[i+1].ID
	}
	pass = []string{next}
	if s.OnPass != "" {
		pass = []string{s.OnPass}
	}
	if s.Type != lang.StageGate && s.OnComplete != "" {
		pass = []string{s.OnComplete}
	}
	if s.OnFail != "" {
		fail = append(fail, s.OnFail)
	}
	if r := s.OnFailRule; r != nil {
		for _, t := range []string{r.Goto, r.Then} {
			if t != "" {
				fail = append(fail, t)
			}
		}
	}
	taken := append(append([]string{}, pass...), fail...)
	if s.Condition != nil && s.SkipTo != "" {
		// The skip edge is the guard's to decide, from today's facts (GuardSkips).
		taken = append(taken, s.SkipTo)
	}
	all := lang.Transitions(s)
	for _, b := range s.Branches {
		if b != nil {
			all = append(all, lang.Transitions(b)...) // a branch's own rules: free, as an agent's
		}
	}
	for _, t := range all {
		if k := indexOf(taken, t); k >= 0 {
			taken = append(taken[:k], taken[k+1:]...) // written out above
			continue
		}
		free = append(free, t)
	}
	return free, pass, fail
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// HeadDependent reports whether a gate's verdict may change when the head moves.
func HeadDependent(s *lang.Stage) bool {
	for _, c := range s.Conditions {
		if h, ok := c.Eval.(model.HeadIndependent); !ok || !h.HeadIndependent() {
			return true
		}
	}
	for _, group := range s.AnyOf {
		for _, c := range group {
			if h, ok := c.Eval.(model.HeadIndependent); !ok || !h.HeadIndependent() {
				return true
			}
		}
	}
	return false
}

// Up is the link from child, a run of pipeline cp, to its parent, checked against the
// config, since the chain is read from the state: the link must be a pipeline stage of the
// parent's pipeline that runs cp, at the attempt that started child, with the parent
// standing there. It returns the parent, its pipeline and the stage of it the guard walks
// to (the parallel stage of a branch), or why the chain cannot be verified. n counts the
// links climbed so far.
func Up(t runtree.Tree, child *model.Run, cp *lang.Pipeline, n int) (parent *model.Run, pp *lang.Pipeline, stage *lang.Stage, why string) {
	parent, stageID := t.ParentOf(child)
	if parent == nil || n > 64 {
		return nil, nil, nil, fmt.Sprintf("the parent run of run %s is not in the state; the merge cannot be verified", child.ID)
	}
	pp = t.Cfg.PipelineFor(parent)
	// link is the stage or branch that started the child; stage is the stage of the
	// parent it belongs to (the parallel stage of a branch), the guard's target.
	var link *lang.Stage
	if pp != nil {
		link, stage = pp.Stage(stageID), pp.Stage(stageID)
		if link == nil {
			stage = pp.Stage(parent.Stage)
			link = runtree.BranchIn(stage, stageID)
		}
	}
	sr := parent.Stages[stageID]
	switch {
	case pp == nil:
		return nil, nil, nil, fmt.Sprintf("pipeline %q of the parent run %s is not in the config; the merge cannot be verified", parent.Pipeline, parent.ID)
	case link == nil || link.Type != lang.StagePipeline || link.Pipeline != cp.Name:
		return nil, nil, nil, fmt.Sprintf("run %s claims stage %q of run %s as its parent, which does not run pipeline %q; the merge cannot be verified", child.ID, stageID, parent.ID, cp.Name)
	case parent.Status.Final() || parent.Status == model.RunEscalated || !t.StandsAt(parent, stageID) || sr == nil || sr.Child != child.ID || sr.Attempt != child.ParentAttempt:
		return nil, nil, nil, fmt.Sprintf("the parent run %s does not stand at the attempt of stage %q that started run %s; the merge cannot be verified", parent.ID, stageID, child.ID)
	case link != stage:
		// The other branches of the parallel stage are still to be joined: a merge
		// belongs after the join (as an action branch may not merge).
		return nil, nil, nil, fmt.Sprintf("run %s runs branch %q of parallel stage %q of run %s: a merge belongs after the join, not inside a branch; the merge is not made", child.ID, stageID, stage.ID, parent.ID)
	}
	return parent, pp, stage, ""
}

// Why says why the guard sends run back to s, a gate or human stage that does not hold on
// today's facts: a human stage by what HumanHolds finds, a gate by the head that moved
// since the run's gates passed (moved) or by the first check of held, its results, unmet.
func Why(e *core.Eval, run *model.Run, s *lang.Stage, moved bool, held []model.GateResult) string {
	pr := e.Facts.PR
	if s.Type == lang.StageHuman {
		_, why := e.Rules().HumanHolds(run, s)
		return fmt.Sprintf("human stage %q does not hold on %s (%s); asking again", s.ID, model.Short(pr.HeadSHA), why)
	}
	if moved {
		return fmt.Sprintf("head moved from %s to %s after gate %q passed; checking again",
			model.Short(run.VerifiedSHA), model.Short(pr.HeadSHA), run.VerifiedBy)
	}
	verb := "does not hold"
	if sr := run.Stages[s.ID]; sr != nil && sr.Status == model.StagePassed {
		verb = "no longer holds"
	}
	return fmt.Sprintf("gate %q %s (%s); checking again", s.ID, verb, model.FirstUnmet(held))
}
