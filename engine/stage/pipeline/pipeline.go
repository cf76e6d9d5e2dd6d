// Package pipeline is the stage type that runs another pipeline. Entering a `type:
// pipeline` stage starts a child run of the named pipeline on the same subject, in the
// same evaluation (so the state that records the entry records the child, and a repeated
// or concurrent event — the state write is a compare-and-swap — can never start a second
// child for the same attempt). The kernel owns the tree of runs; the stage follows where
// its child stands each time it is evaluated:
//
//   - the child completed: the stage succeeds with outputs = the child's stages' outputs,
//     by stage id (`stages.<pipeline stage>.outputs.<child stage>.<key>`), and the parent
//     follows on_complete at once;
//   - the child failed, was cancelled, or escalated: the stage's on_error applies (retry
//     starts a new attempt, which starts a new child; then its `then`, default fail). An
//     escalated child is ended (cancelled) as it hands its escalation to the parent;
//   - otherwise the stage waits, naming whom the child waits for.
//
// As a branch of a parallel stage it has no on_error: the child's end is the branch's,
// and the join decides.
package pipeline

import (
	"fmt"
	"sort"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Type starts a child pipeline and waits for its end.
type Type struct {
	stage.NoDeadlines
}

// Worker names the sub-pipeline.
func (Type) Worker(s *lang.Stage) (kind, name string) { return "pipeline", s.Pipeline }

// Step starts the child on entry, advances it, and follows its end.
func (Type) Step(c stage.Context, run *model.Run, s *lang.Stage) stage.Decision {
	child, dec := childOf(c, run, s, stage.Error)
	if child == nil {
		return dec
	}
	return Follow(c, run, s, child)
}

// childOf is the child of s (a stage or a branch) as it stands, or, when none could start,
// nil and the decision: the run fails when that is fatal (s shows why), else none(why).
func childOf(c stage.Context, run *model.Run, s *lang.Stage, none func(why string) stage.Decision) (*model.Run, stage.Decision) {
	child, why, fatal := c.Child(s)
	switch {
	case child != nil:
		return child, stage.Stay()
	case fatal:
		if sr := run.Stages[s.ID]; sr != nil {
			sr.Status, sr.Message = model.StageFailed, why
		}
		return nil, stage.Stop(why)
	}
	return nil, none(why)
}

// Follow is where run's pipeline stage s goes as its child stands.
func Follow(c stage.Context, run *model.Run, s *lang.Stage, child *model.Run) stage.Decision {
	sr := run.Stages[s.ID]
	switch child.Status {
	case model.RunCompleted:
		sr.Outputs = outputs(child)
		sr.Errors = 0
		sr.Message = ""
		sr.Results = nil
		return stage.Leave(model.StageSucceeded, s.OnComplete, fmt.Sprintf("sub-pipeline run %s completed", child.ID))
	case model.RunEscalated:
		why := ended(child, "escalated")
		c.EndChild(child, fmt.Sprintf("its escalation goes to stage %q of run %s (on_error)", s.ID, run.ID))
		return stage.Error(why)
	case model.RunFailed, model.RunCancelled:
		return stage.Error(ended(child, string(child.Status)))
	}
	sr.Status = model.StageWaiting
	msg := fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	if csr := child.Stages[child.Stage]; csr != nil {
		if r := model.FirstUnmet(csr.Results); r != "" {
			msg += ": " + r
		}
	}
	sr.Message = msg
	sr.Results = []model.GateResult{{Check: "sub-pipeline", Status: model.GatePending, Message: msg, Who: waitsFor(child, "the sub-pipeline")}}
	run.Status = model.RunWaiting
	if child.Status == model.RunRunning {
		run.Status = model.RunRunning
	}
	return stage.Stay()
}

// Branch moves b, a pipeline branch of the parallel stage run stands at: it starts the
// branch's child once per attempt of the branch, advances it, and ends the branch as the
// child ends.
func (Type) Branch(c stage.Context, run *model.Run, b *lang.Stage) stage.Decision {
	child, dec := childOf(c, run, b, func(why string) stage.Decision { return stage.Leave(model.StageFailed, "", why) })
	if child == nil {
		return dec
	}
	return FollowBranch(c, run, b, child)
}

// FollowBranch is where pipeline branch b of run goes as its child stands. The child
// completing is the branch succeeding, with the child's outputs; a child that fails, is
// cancelled or escalates fails its branch (an escalated child is ended: the join decides
// for its parent). A child that ended on a rejecting verdict — the stage it ended at
// recorded reject, revise or followup — makes its branch rejected with that verdict, so
// the parallel stage's on_any_reject applies.
func FollowBranch(c stage.Context, run *model.Run, b *lang.Stage, child *model.Run) stage.Decision {
	bsr := run.Stages[b.ID]
	switch child.Status {
	case model.RunCompleted:
		bsr.Outputs = outputs(child)
		return stage.Leave(model.StageSucceeded, "", fmt.Sprintf("sub-pipeline run %s completed", child.ID))
	case model.RunEscalated, model.RunFailed, model.RunCancelled:
		why := ended(child, string(child.Status))
		_, bsr.Verdict = rejecting(child)
		bsr.Outputs = outputs(child)
		if child.Status == model.RunEscalated {
			c.EndChild(child, fmt.Sprintf("its escalation fails branch %q of run %s (the join decides)", b.ID, run.ID))
		}
		return stage.Leave(model.StageFailed, "", why)
	}
	bsr.Status = model.StageWaiting
	bsr.Message = fmt.Sprintf("sub-pipeline run %s is %s at %s", child.ID, child.Status, child.Stage)
	bsr.Results = []model.GateResult{{Check: "sub-pipeline", Status: model.GatePending, Message: bsr.Message, Who: waitsFor(child, "the sub-pipeline "+b.Pipeline)}}
	return stage.Stay()
}

// Recheck: a pipeline stage holds for the merge guard when its sub-pipeline holds to its end.
func (Type) Recheck(g stage.Guard, s *lang.Stage) stage.Verdict {
	return stage.Judge(g, s, g.SubHolds)
}

// StillHolds: a pipeline stage the run left holds while its sub-pipeline does.
func (Type) StillHolds(g stage.Guard, s *lang.Stage, sr *model.StageRun) bool {
	return sr.Status != model.StageSucceeded && sr.Status != model.StageSkipped || g.Skips(s) || g.SubHolds(s)
}

// ended says how child ended, with its message.
func ended(child *model.Run, how string) string {
	why := fmt.Sprintf("sub-pipeline run %s %s at %s", child.ID, how, child.Stage)
	if child.Message != "" {
		why += ": " + child.Message
	}
	return why
}

// waitsFor is whom child's stage waits for, as its first unmet required result names
// them, else dflt.
func waitsFor(child *model.Run, dflt string) string {
	if csr := child.Stages[child.Stage]; csr != nil {
		for _, r := range csr.Results {
			if !r.Optional && r.Status != model.GatePass && r.Who != "" {
				return r.Who
			}
		}
	}
	return dflt
}

// outputs are the outputs a child hands its parent's stage: each of its stages' outputs,
// by stage id.
func outputs(child *model.Run) map[string]any {
	out := map[string]any{}
	ids := make([]string, 0, len(child.Stages))
	for id := range child.Stages {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if o := child.Stages[id].Outputs; len(o) > 0 {
			out[id] = o
		}
	}
	if len(out) == 0 {
		return nil
	}
	return lang.JSONSafe(out)
}

// rejecting is the stage a child that did not complete ended at, and its verdict, when
// that verdict rejects (reject, revise, followup); else "", "". A child ended by the
// escalation it handed to its parent is judged by the stage it escalated at.
func rejecting(child *model.Run) (stage, verdict string) {
	if child.Status == model.RunCompleted {
		return "", ""
	}
	if sr := child.Stages[child.Stage]; sr != nil && lang.Rejects(sr.Verdict) {
		return child.Stage, sr.Verdict
	}
	return "", ""
}
