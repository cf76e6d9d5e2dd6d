package engine

import (
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

func (c *stageContext) BranchHolds(b *lang.Stage) (bool, string, error) {
	return c.e.conditionHolds(c.p, c.run, b.Condition)
}

func (c *stageContext) MergeAll(par *lang.Stage) bool {
	stop, _ := subject.MergeAll(subjectKernel{c.e}, c.p, c.run, par)
	return stop
}

func (c *stageContext) StepBranch(b *lang.Stage) bool {
	t, ok := stageTypes[b.Type]
	return ok && t.branch(c.e, c.p, c.run, b)
}

func (c *stageContext) ChildRun(id string) *model.Run { return c.e.tree().ByID(id) }

// Forget drops the effects the evaluation asked for branch b and the run's intents of it.
func (c *stageContext) Forget(b string) {
	e, run := c.e, c.run
	kept := e.Effects[:0]
	for _, eff := range e.Effects {
		if eff.Run == run.ID && eff.Stage == b {
			e.Logf("run %s: %s is not asked for: branch %s is cancelled", run.ID, eff.Key, b)
			continue
		}
		kept = append(kept, eff)
	}
	e.Effects = kept
	for _, it := range run.Intents {
		if it.Stage == b {
			run.Intents = model.DropIntent(run.Intents, it.Key)
			e.Logf("run %s: the outcome of %s asked for at %s is not known; branch %s is cancelled without it", run.ID, it.Key, it.At.UTC().Format("2006-01-02T15:04:05Z07:00"), b)
		}
	}
}

// LeaveBranch ends stage, when it is a branch of run's parallel stage, with status where
// the machinery of its type would leave it for a target: a branch has no transitions;
// the join decides. It reports whether stage is a branch (and so was handled).
func (e *eval) LeaveBranch(run *model.Run, stage *lang.Stage, status model.StageStatus, why string) bool {
	p := e.Cfg.PipelineFor(run)
	if !parallel.IsBranch(p, run, stage) {
		return false
	}
	parallel.End(e.context(p, run), run, stage, status, why)
	return true
}

// resuming is the type of s when it keeps part of its work across a retry or an unblock,
// else nil.
func resuming(s *lang.Stage) stage.Resuming {
	if s == nil {
		return nil
	}
	r, _ := stageTypes[s.Type].t.(stage.Resuming)
	return r
}
