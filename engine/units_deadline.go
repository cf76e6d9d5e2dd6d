package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/internal/actionplan"
	"github.com/org/pipeline-action/engine/internal/deadline"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// How often, and how many times, a merge waiting on GitHub's mergeability looks again.
const (
	mergeabilityInterval = deadline.MergeabilityInterval
	mergeabilityPolls    = deadline.MergeabilityPolls
)

// waitMergeability keeps sr of run waiting for GitHub's mergeability of what: it arms the
// next poll, or escalates when the last one is spent. It reports whether the run escalated.
func (e *eval) waitMergeability(run *model.Run, sr *model.StageRun, what string) bool {
	if why := e.Deadlines.Poll(e.Now, run, sr, what); why != "" {
		e.escalate(run, why)
		return true
	}
	return false
}

// deadlineKernel is the deadline table's view of the evaluation: runs of p (nil while it
// only arms, which looks each run's pipeline up).
type deadlineKernel struct {
	e *eval
	p *lang.Pipeline
}

func (k deadlineKernel) Now() time.Time                  { return k.e.Now }
func (k deadlineKernel) Logf(format string, args ...any) { k.e.Logf(format, args...) }
func (k deadlineKernel) PR() *model.PullRequest          { return k.e.Facts.PR }
func (k deadlineKernel) Emit(eff model.Effect)           { k.e.Effects = append(k.e.Effects, eff) }

func (k deadlineKernel) Stage(run *model.Run) *lang.Stage {
	p := k.e.Cfg.PipelineFor(run)
	if p == nil {
		return nil
	}
	return k.e.StageOf(p, run.Stage)
}

func (k deadlineKernel) Own(stage *lang.Stage, sr *model.StageRun) {
	if t, ok := stageTypes[stage.Type]; ok {
		t.t.Arm(stage, sr, k.e.Now)
	}
}

func (k deadlineKernel) OwnDue(run *model.Run, stage *lang.Stage, d model.Deadline) (moved, handled bool) {
	t, ok := stageTypes[stage.Type]
	if !ok {
		return false, false
	}
	return t.deadline(k.e, k.p, run, stage, d), true
}

func (k deadlineKernel) Leave(run *model.Run, stage *lang.Stage, status model.StageStatus, target, why string) {
	k.e.leave(run, stage, status, target, why)
}

func (k deadlineKernel) Finish(run *model.Run, status model.RunStatus, to, why string) {
	k.e.finish(run, status, to, why)
}

func (k deadlineKernel) Cancel(run *model.Run, why string) {
	k.e.finish(run, model.RunCancelled, TargetCancelled, why)
}

func (k deadlineKernel) Escalate(run *model.Run, why string) { k.e.escalate(run, why) }

func (k deadlineKernel) AgentError(run *model.Run, stage *lang.Stage, why string) bool {
	return k.e.agentError(run, stage, why)
}

func (k deadlineKernel) FollowDue(run *model.Run, stage *lang.Stage, d model.Deadline) bool {
	return k.e.FollowDue(k.p, run, stage, d)
}

func (k deadlineKernel) Notify(run *model.Run, eff model.Effect, target, message *lang.Template) (model.Effect, string, string) {
	plan := actionplan.Notify(k.e.Eval, run, eff, target, message, scope.TemplateEnv(scopeKernel{k.e}, k.p, run))
	return plan.Eff, plan.Done, plan.Err
}
