package engine

import (
	"github.com/org/pipeline-action/engine/internal/actionplan"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// rulesKernel is the evaluator as the lists and rules (package rules) see it.
type rulesKernel struct{ e *eval }

func (k rulesKernel) Facts() *model.Facts                       { return k.e.Facts }
func (k rulesKernel) PipelineFor(run *model.Run) *lang.Pipeline { return k.e.Cfg.PipelineFor(run) }
func (k rulesKernel) Logf(format string, args ...any)           { k.e.Logf(format, args...) }
func (k rulesKernel) Emit(eff model.Effect)                     { k.e.Effects = append(k.e.Effects, eff) }
func (k rulesKernel) Env(p *lang.Pipeline, run *model.Run) lang.Env {
	return scope.Env(scopeKernel{k.e}, p, run)
}
func (k rulesKernel) MarkNext(run *model.Run, kind string) { k.e.MarkNext(run, kind) }
func (k rulesKernel) LoopedBounded(run *model.Run)         { k.e.LoopedBounded(run) }

func (k rulesKernel) TemplateEnv(p *lang.Pipeline, run *model.Run) lang.Env {
	return scope.TemplateEnv(scopeKernel{k.e}, p, run)
}

func (k rulesKernel) PlanItem(run *model.Run, item lang.ActionItem, eff model.Effect, env lang.Env) core.PlannedAction {
	return actionplan.Item(k.e.Eval, run, item, eff, env)
}

func (k rulesKernel) PlanLabel(eff model.Effect, add, remove []string) core.PlannedAction {
	return actionplan.Label(k.e.Eval, eff, add, remove)
}

func (k rulesKernel) PlanNotify(run *model.Run, eff model.Effect, target, message *lang.Template, env lang.Env) core.PlannedAction {
	return actionplan.Notify(k.e.Eval, run, eff, target, message, env)
}

func (k rulesKernel) Leave(run *model.Run, s *lang.Stage, status model.StageStatus, target, why string) {
	k.e.leave(run, s, status, target, why)
}
