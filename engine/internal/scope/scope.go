// Package scope is what a run sees: its expression environment (the context, variables and
// stages' outputs of the run, the facts, the run and its subject), the template
// environment actions read (the same with the trigger), the context and variables computed
// when a run starts, and a stage's conditions evaluated with a check of the kernel's.
package scope

import (
	"github.com/org/pipeline-action/engine/internal/variables"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Kernel is what a run's scope reads of the evaluation.
type Kernel interface {
	Config() *lang.Config
	State() *model.State
	Facts() *model.Facts
	Logf(format string, args ...any)
	// SubjectEnv adds to env what the subject kind of run, which follows p, tells of it (an
	// issue's pull requests).
	SubjectEnv(p *lang.Pipeline, run *model.Run, env lang.Env)
	// Branches is the `branches` of the parallel stage run stands at, or nil.
	Branches(p *lang.Pipeline, run *model.Run) any
}

// Env is what expressions and templates of run, which follows p, read: its context, the
// pipeline's variables, the stages' outputs, the facts, the run and its subject.
func Env(k Kernel, p *lang.Pipeline, run *model.Run) lang.Env {
	f, cfg := k.Facts(), k.Config()
	stages := map[string]any{}
	for id, sr := range run.Stages {
		outs := sr.Outputs
		if outs == nil {
			outs = map[string]any{}
		}
		stages[id] = map[string]any{"outputs": outs, "status": string(sr.Status), "attempt": sr.Attempt, "verdict": sr.Verdict}
	}
	ctx := map[string]any{}
	for key, v := range run.Context {
		ctx[key] = v
	}
	env := lang.Env{"github": model.FactsEnv(f), "context": ctx, "stages": stages,
		"run":     map[string]any{"id": run.ID, "pipeline": run.Pipeline, "stage": run.Stage},
		"subject": map[string]any{"repo": f.Repo, "number": f.PR.Number}}
	k.SubjectEnv(p, run, env)
	if sr := run.Stages[run.Stage]; sr != nil && sr.Outputs != nil {
		env["outputs"] = sr.Outputs
	}
	env["variables"] = variables.Of(p, run, env, f)
	env["shared"] = variables.Shared(cfg, k.State())
	if b := k.Branches(p, run); b != nil {
		env["branches"] = b
	}
	names := make([]any, len(cfg.Agents))
	for i, a := range cfg.Agents {
		names[i] = a.Name
	}
	env["agents"] = names
	return env
}

// TemplateEnv is what templates of run's actions read: Env and `trigger` as the facts tell
// it (trigger.pull_request.number, .title, .user.login, .head.ref, .base.ref, …).
func TemplateEnv(k Kernel, p *lang.Pipeline, run *model.Run) lang.Env {
	env := Env(k, p, run)
	env["trigger"] = model.TriggerEnv(k.Facts())
	return env
}

// Start computes, as run starts, p's `context:` into run.Context, over the event as the
// facts describe it (`trigger.pull_request.*`) and the facts themselves — a value whose
// template cannot be filled is left out, and the job log says why —, then over passed (what
// a parent run hands its child), then p's `variables:` over the run's template environment.
func Start(k Kernel, p *lang.Pipeline, run *model.Run, passed map[string]any) {
	if len(p.Context) > 0 {
		env := TemplateEnv(k, p, run)
		ctx := map[string]any{}
		for _, kv := range p.Context {
			v, err := lang.ValueOf(kv.Value, env)
			if err != nil {
				k.Logf("run %s: context %q: %v; left out", run.ID, kv.Key, err)
				continue
			}
			ctx[kv.Key] = lang.JSONValue(v)
			env["context"] = ctx
		}
		run.Context = ctx
	}
	if run.Context == nil && len(passed) > 0 {
		run.Context = map[string]any{}
	}
	for key, v := range passed {
		run.Context[key] = v
	}
	if len(p.Variables) > 0 {
		variables.Init(p, run, TemplateEnv(k, p, run), k.Logf)
	}
}
