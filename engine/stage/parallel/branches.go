package parallel

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// IsBranch reports whether s is a branch of the parallel stage its record in run names as
// its parent — in p, the pipeline run follows, not on the record's word alone.
func IsBranch(p *lang.Pipeline, run *model.Run, s *lang.Stage) bool {
	sr := run.Stages[s.ID]
	if sr == nil || sr.Parent == "" {
		return false
	}
	return p != nil && branchOf(p.Stage(sr.Parent), s.ID) != nil
}

// End ends b, a branch of run (IsBranch), with status where the machinery of its type
// would leave it for a target: a branch has no transitions; the join decides.
func End(c stage.Context, run *model.Run, b *lang.Stage, status model.StageStatus, why string) {
	sr := run.Stages[b.ID]
	sr.Status, sr.Message, sr.Results = status, why, nil
	if par := run.Stages[sr.Parent]; par != nil {
		par.Deadlines = dropDeadline(par.Deadlines, b.ID)
	}
	c.Logf("run %s: branch %s of %s %s: %s", run.ID, b.ID, sr.Parent, status, why)
}

// VerdictStatus is how a branch ends on verdict: it succeeds on complete or approve, and
// fails on any other.
func VerdictStatus(verdict string) model.StageStatus {
	if verdict == lang.VerdictComplete || verdict == lang.VerdictApprove {
		return model.StageSucceeded
	}
	return model.StageFailed
}

// Cancel cancels the branches of par still open in the run's current entry of it: their
// reports are refused from now on, and the kernel forgets their effects in flight.
func Cancel(c stage.Context, run *model.Run, par *lang.Stage, why string) {
	sr := run.Stages[par.ID]
	if sr == nil {
		return
	}
	for _, b := range par.Branches {
		bsr := run.Stages[b.ID]
		if bsr == nil || bsr.Parent != par.ID || bsr.ParentAttempt != sr.Attempt || !model.BranchPending(bsr.Status) {
			continue
		}
		bsr.Status, bsr.Message, bsr.Results = model.StageCancelled, "cancelled: "+why, nil
		c.Forget(b.ID)
		c.Logf("run %s: branch %s of %s cancelled: %s", run.ID, b.ID, par.ID, why)
	}
	sr.DropDeadlines(model.DeadlineBranch)
}

// Close cancels the open branches of the run's current stage, when it is a parallel
// stage of c's pipeline, as the run leaves it (a timeout, a chat-op, the end of the run).
func Close(c stage.Context, run *model.Run, why string) {
	p := c.Pipeline()
	if run.Stages[run.Stage] == nil || p == nil {
		return
	}
	if par := p.Stage(run.Stage); par != nil && par.Type == lang.StageParallel {
		Cancel(c, run, par, fmt.Sprintf("stage %s was left (%s)", par.ID, why))
	}
}

// Env is `branches` in expressions and templates while run stands at a parallel stage
// of c's pipeline: one entry per branch, in file order, with its id, status, verdict,
// attempt, agent, outputs, and feedback (outputs.feedback, or null; of a pipeline branch
// whose child rejected, the rejecting child stage's outputs.feedback). Nil elsewhere.
func Env(c stage.Context, run *model.Run) []any {
	p := c.Pipeline()
	if p == nil {
		return nil
	}
	par := p.Stage(run.Stage)
	if par == nil || par.Type != lang.StageParallel {
		return nil
	}
	out := make([]any, 0, len(par.Branches))
	for _, b := range par.Branches {
		m := map[string]any{"id": b.ID, "status": "", "verdict": "", "attempt": 0, "agent": b.Agent, "outputs": map[string]any{}, "feedback": nil}
		if bsr := run.Stages[b.ID]; bsr != nil {
			m["status"], m["verdict"], m["attempt"] = string(bsr.Status), bsr.Verdict, bsr.Attempt
			if bsr.Outputs != nil {
				m["outputs"] = bsr.Outputs
				m["feedback"] = bsr.Outputs["feedback"]
			}
			if b.Type == lang.StagePipeline {
				m["pipeline"], m["feedback"] = b.Pipeline, childFeedback(c, bsr)
			}
		}
		out = append(out, m)
	}
	return out
}

// childFeedback is the feedback of a pipeline branch whose child rejected: the
// outputs.feedback of the stage the child ended at on a rejecting verdict, or nil.
func childFeedback(c stage.Context, bsr *model.StageRun) any {
	if !lang.Rejects(bsr.Verdict) || bsr.Child == "" {
		return nil
	}
	child := c.ChildRun(bsr.Child)
	if child == nil || child.Status == model.RunCompleted {
		return nil
	}
	if sr := child.Stages[child.Stage]; sr != nil && lang.Rejects(sr.Verdict) {
		return sr.Outputs["feedback"]
	}
	return nil
}

// branchOf is the branch of par called id, or nil.
func branchOf(par *lang.Stage, id string) *lang.Stage {
	if par == nil {
		return nil
	}
	for _, b := range par.Branches {
		if b != nil && b.ID == id {
			return b
		}
	}
	return nil
}

// dropDeadline drops the deadline of branch from ds.
func dropDeadline(ds []model.Deadline, branch string) []model.Deadline {
	var out []model.Deadline
	for _, d := range ds {
		if d.Kind != model.DeadlineBranch || d.Branch != branch {
			out = append(out, d)
		}
	}
	return out
}
