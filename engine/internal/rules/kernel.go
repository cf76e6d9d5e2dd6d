// Package rules is what a pipeline's `on_complete`/`on_error` lists and a stage's rules
// (a gate's on_fail, merge_pr's on_conflict and on_ci_failure, an agent's verdict rules)
// ask for: their notifications and labels once per attempt and head, their loops counted
// for the run's life, and where they send the run. It moves runs only through Kernel.
package rules

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Kernel is what the lists and rules ask of the evaluator.
type Kernel interface {
	Facts() *model.Facts
	// PipelineFor is the pipeline run follows, or nil.
	PipelineFor(run *model.Run) *lang.Pipeline
	Logf(format string, args ...any)
	// Emit asks for eff once the state is saved.
	Emit(eff model.Effect)
	// Env and TemplateEnv are run's expression and template environments.
	Env(p *lang.Pipeline, run *model.Run) lang.Env
	TemplateEnv(p *lang.Pipeline, run *model.Run) lang.Env
	// PlanItem, PlanLabel and PlanNotify plan the effect of a list item, of labels, of a
	// notification: the effect, nothing to do, or why it cannot be done.
	PlanItem(run *model.Run, item lang.ActionItem, eff model.Effect, env lang.Env) core.PlannedAction
	PlanLabel(eff model.Effect, add, remove []string) core.PlannedAction
	PlanNotify(run *model.Run, eff model.Effect, target, message *lang.Template, env lang.Env) core.PlannedAction
	// Leave moves run from stage, which ends with status, to target.
	Leave(run *model.Run, stage *lang.Stage, status model.StageStatus, target, why string)
	// MarkNext marks the kind of the next transition of run (a loop) for its history.
	MarkNext(run *model.Run, kind string)
	// LoopedBounded notes that run looped under a maximum.
	LoopedBounded(run *model.Run)
}

// ActionNotifyAndWait is the `action` of an on_fail handler that notifies and keeps the
// gate waiting.
const ActionNotifyAndWait = "notify_and_wait"
