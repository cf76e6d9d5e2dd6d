// Package runtree is the tree of runs sub-pipelines grow: a pipeline stage (or a pipeline
// branch of a parallel stage) starts a child run of another pipeline on the same subject,
// linked to its parent by Run.Parent and Run.ParentAttempt and from it by StageRun.Child.
// Tree reads the links of a state; Start, Advance and Reap are the kernel's moves of the
// children, through Kernel.
package runtree

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Tree is the runs of one state, read as parents and children, under the config that
// says which stages of a parallel stage are its branches.
type Tree struct {
	Runs []*model.Run
	Cfg  *lang.Config
}

// ByID is the run called id, or nil.
func (t Tree) ByID(id string) *model.Run {
	for _, r := range t.Runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// ChildOf is the child run of run's current attempt of s, or nil.
func (t Tree) ChildOf(run *model.Run, s *lang.Stage) *model.Run {
	sr := run.Stages[s.ID]
	if sr == nil || sr.Child == "" {
		return nil
	}
	c := t.ByID(sr.Child)
	if c == nil || c.Parent != model.ParentRef(run.ID, s.ID) || c.ParentAttempt != sr.Attempt {
		return nil
	}
	return c
}

// ParentOf is the parent of child and the id of the stage that started it; nil when
// child has no parent or its parent is not in the state.
func (t Tree) ParentOf(child *model.Run) (*model.Run, string) {
	if child.Parent == "" {
		return nil, ""
	}
	id, stage := model.SplitParent(child.Parent)
	return t.ByID(id), stage
}

// LiveChildren are the children of run that are not final and that run still waits for
// (at its current stage, or at an open branch of it).
func (t Tree) LiveChildren(run *model.Run) []*model.Run {
	if run.Status.Final() {
		return nil
	}
	var out []*model.Run
	for _, c := range t.Runs {
		if c.Parent == "" || c.Status.Final() {
			continue
		}
		id, stage := model.SplitParent(c.Parent)
		if id != run.ID || !t.StandsAt(run, stage) {
			continue
		}
		if sr := run.Stages[stage]; sr != nil && sr.Child == c.ID && sr.Attempt == c.ParentAttempt {
			out = append(out, c)
		}
	}
	return out
}

// StandsAt reports whether run stands at stage id: its current stage, or a branch of its
// current (parallel) stage that is still open.
func (t Tree) StandsAt(run *model.Run, id string) bool {
	if run.Stage == id {
		return true
	}
	p := t.Cfg.PipelineFor(run)
	if p == nil {
		return false
	}
	if b := BranchIn(p.Stage(run.Stage), id); b != nil {
		sr := run.Stages[id]
		return sr != nil && (sr.Status == model.StageWaiting || sr.Status == model.StageActing || sr.Status == model.StageRetrying)
	}
	return false
}

// Descends reports whether r is run or a run below it (its child, its child's child …).
func (t Tree) Descends(r, run *model.Run) bool {
	for n := 0; r != nil && n <= 64; n++ {
		if r == run || r.ID == run.ID {
			return true
		}
		r, _ = t.ParentOf(r)
	}
	return false
}

// OpenIntentDeep is an intent in flight of run or of a run below it: the run, and the
// runs after it, wait for its outcome.
func (t Tree) OpenIntentDeep(run *model.Run) (model.Intent, bool) {
	if it, ok := core.OpenIntent(run); ok {
		return it, true
	}
	for _, r := range t.Runs {
		if r.Parent == "" || r.Status.Final() || !t.Descends(r, run) {
			continue
		}
		if it, ok := core.OpenIntent(r); ok {
			return it, true
		}
	}
	return model.Intent{}, false
}

// AnyBelow reports whether run or a run below it is one of ids (the runs whose effect was
// refused in this evaluation, say).
func (t Tree) AnyBelow(ids map[string]bool, run *model.Run) bool {
	for id := range ids {
		if r := t.ByID(id); r != nil && t.Descends(r, run) {
			return true
		}
	}
	return false
}

// BranchIn is the branch id of parallel stage s, or nil.
func BranchIn(s *lang.Stage, id string) *lang.Stage {
	if s == nil || s.Type != lang.StageParallel {
		return nil
	}
	for _, b := range s.Branches {
		if b != nil && b.ID == id {
			return b
		}
	}
	return nil
}
