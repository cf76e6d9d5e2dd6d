package engine

import (
	"github.com/org/pipeline-action/engine/internal/actionplan"
	"github.com/org/pipeline-action/engine/internal/react"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"
)

// reactKernel is the evaluator as the reactions (package react) see it.
type reactKernel struct{ e *eval }

func (k reactKernel) World() react.World {
	e := k.e
	return react.World{Cfg: e.Cfg, Facts: e.Facts, Now: e.Now, Issue: e.Issue != nil, Runs: e.St.Runs}
}

func (k reactKernel) Logf(format string, args ...any) { k.e.Logf(format, args...) }

func (k reactKernel) Enter(run *model.Run, target, why string) {
	k.e.enter(run, run.Stage, target, why)
}

func (k reactKernel) Leave(run *model.Run, s *lang.Stage, status model.StageStatus, target, why string) {
	k.e.leave(run, s, status, target, why)
}

func (k reactKernel) Finish(run *model.Run, status model.RunStatus, target, why string) {
	k.e.finish(run, status, target, why)
}

func (k reactKernel) Record(run *model.Run, why string) { k.e.Record(run, run.Stage, run.Stage, why) }

func (k reactKernel) Emit(eff model.Effect) { k.e.Effects = append(k.e.Effects, eff) }

func (k reactKernel) Merged(p *lang.Pipeline, run *model.Run) (own *lang.Stage, by string, child bool) {
	if own = k.e.ownMerge(p, run); own != nil {
		return own, k.e.RunPR(run).MergedBy, false
	}
	return nil, "", k.e.childMerged(run)
}

func (k reactKernel) TemplateEnv(p *lang.Pipeline, run *model.Run) lang.Env {
	return scope.TemplateEnv(scopeKernel{k.e}, p, run)
}

func (k reactKernel) PlanNotify(run *model.Run, eff model.Effect, target, message *lang.Template, env lang.Env) (model.Effect, string) {
	plan := actionplan.Notify(k.e.Eval, run, eff, target, message, env)
	return plan.Eff, plan.Err
}

func (k reactKernel) AgentDispatch(p *lang.Pipeline, run *model.Run, s *lang.Stage, ag *lang.Agent, key string) (model.Effect, error) {
	return agent.DispatchEffect(k.e.context(p, run), run, s, ag, key)
}

// restartDeferred restarts run, unblocked by `by`, where a reaction deferred while it was
// escalated says (react.RestartDeferred); false when none was deferred.
func (e *eval) restartDeferred(p *lang.Pipeline, run *model.Run, by string) bool {
	return react.RestartDeferred(reactKernel{e}, p, run, by)
}
