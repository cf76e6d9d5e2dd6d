package engine

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/variables"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// env is what templates of run read: its context, the pipeline's variables, the stages'
// outputs, the facts, the run and its subject.
func (e *eval) env(p *lang.Pipeline, run *model.Run) lang.Env {
	stages := map[string]any{}
	for id, sr := range run.Stages {
		outs := sr.Outputs
		if outs == nil {
			outs = map[string]any{}
		}
		stages[id] = map[string]any{"outputs": outs, "status": string(sr.Status), "attempt": sr.Attempt, "verdict": sr.Verdict}
	}
	ctx := map[string]any{}
	for k, v := range run.Context {
		ctx[k] = v
	}
	env := lang.Env{"github": model.FactsEnv(e.Facts), "context": ctx, "stages": stages,
		"run":     map[string]any{"id": run.ID, "pipeline": run.Pipeline, "stage": run.Stage},
		"subject": map[string]any{"repo": e.Facts.Repo, "number": e.Facts.PR.Number}}
	kindOf(e, p).Env(core.Scope(e.Eval), run, env)
	if sr := run.Stages[run.Stage]; sr != nil && sr.Outputs != nil {
		env["outputs"] = sr.Outputs
	}
	env["variables"] = variables.Of(p, run, env, e.Facts)
	env["shared"] = variables.Shared(e.Cfg, e.St)
	if b := parallel.Env(e.context(p, run), run); b != nil {
		env["branches"] = b
	}
	names := make([]any, len(e.Cfg.Agents))
	for i, a := range e.Cfg.Agents {
		names[i] = a.Name
	}
	env["agents"] = names
	return env
}
