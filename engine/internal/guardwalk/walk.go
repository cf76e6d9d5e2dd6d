package guardwalk

import (
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

// Judge is the verdict on s of a stage type that holds when holds says so: it skips when
// its condition decidedly does not hold today (skips), else it holds or stops the walk.
func Judge(s *lang.Stage, skips, holds func(*lang.Stage) bool) stage.Verdict {
	switch {
	case skips(s):
		return stage.Skips
	case holds(s):
		return stage.Holds
	}
	return stage.Stops
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
