// Package variables keeps a run's variables and a subject's shared ones (seed 002's two
// namespaces). A pipeline's `variables:` are computed once, when a run starts, over the
// trigger and the facts, and kept in the run (Run.Variables): expressions and templates read
// them as `variables.*`, and `set_variable` changes them for that run only. The subject's
// shared variables (State.Shared) are one namespace for every pipeline on the subject, read
// as `shared.*` and written by `set_shared`; they persist across runs in the subject's state.
// The two are kept apart: writing `variables.x` never changes `shared.x`.
package variables

import (
	"encoding/json"
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Init computes p's `variables:` over env into run.Variables, when the run starts. A value
// whose template cannot be filled, or that is too large, is left out, and logf says why.
func Init(p *lang.Pipeline, run *model.Run, env lang.Env, logf func(string, ...any)) {
	if len(p.Variables) == 0 {
		return
	}
	vars := map[string]any{}
	for _, kv := range p.Variables {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			logf("run %s: variable %q: %v; left out", run.ID, kv.Key, err)
			continue
		}
		v = lang.JSONValue(v)
		if b, _ := json.Marshal(v); len(b) > model.MaxVariableBytes {
			logf("run %s: variable %q: the value is %d bytes of JSON, more than %d; left out", run.ID, kv.Key, len(b), model.MaxVariableBytes)
			continue
		}
		vars[kv.Key] = v
	}
	run.Variables = vars
}

// Of is what `variables` reads for run: the values kept in the run, or — for a run started
// before they were kept — p's `variables:` computed over env and the trigger of f.
func Of(p *lang.Pipeline, run *model.Run, env lang.Env, f *model.Facts) map[string]any {
	vars := map[string]any{}
	if run.Variables != nil {
		for k, v := range run.Variables {
			vars[k] = v
		}
		return vars
	}
	if len(p.Variables) == 0 {
		return vars
	}
	with := lang.Env{"trigger": model.TriggerEnv(f)}
	for k, v := range env {
		with[k] = v
	}
	for _, kv := range p.Variables {
		if v, err := lang.ValueOf(kv.Value, with); err == nil {
			if b, _ := json.Marshal(v); len(b) <= model.MaxVariableBytes {
				vars[kv.Key] = v
			}
		}
	}
	return vars
}

// Shared is what `shared` reads: a copy of the subject's shared variables of st, over the
// defaults cfg's pipelines declare in `session_variables:`.
func Shared(cfg *lang.Config, st *model.State) map[string]any {
	out := map[string]any{}
	for _, kv := range cfg.SharedDefaults {
		if v, err := lang.ValueOf(kv.Value, nil); err == nil {
			out[kv.Key] = lang.JSONValue(v)
		}
	}
	for k, v := range st.Shared {
		out[k] = v
	}
	return out
}

// Set sets a run variable (set_variable) or a shared one of st (set_shared) to value
// computed over env. It asks GitHub for nothing: done says what it set, or err why not.
func Set(st *model.State, run *model.Run, action, name string, value lang.Value, env lang.Env) (done, err string) {
	if !lang.VariableName().MatchString(name) {
		return "", fmt.Sprintf("%s: %q is not a variable name (letters, digits and _, starting with a letter or _)", action, name)
	}
	v, verr := lang.ValueOf(value, env)
	if verr != nil {
		return "", fmt.Sprintf("%s %q: %v", action, name, verr)
	}
	v = lang.JSONValue(v)
	b, _ := json.Marshal(v)
	if len(b) > model.MaxVariableBytes {
		return "", fmt.Sprintf("%s %q: the value is %d bytes of JSON, more than %d", action, name, len(b), model.MaxVariableBytes)
	}
	target := &run.Variables
	scope := "variable"
	if action == lang.ActionSetShared {
		target, scope = &st.Shared, "shared variable"
	}
	if *target == nil && action == lang.ActionSetVariable {
		// A run started before its variables were kept: keep what it reads now.
		vars, _ := env["variables"].(map[string]any)
		run.Variables = map[string]any{}
		for k, x := range vars {
			run.Variables[k] = lang.JSONValue(x)
		}
	}
	if *target == nil {
		*target = map[string]any{}
	}
	if _, ok := (*target)[name]; !ok && len(*target) >= model.MaxVariables {
		return "", fmt.Sprintf("%s %q: there are %d %ss already, the most kept", action, name, model.MaxVariables, scope)
	}
	(*target)[name] = v
	return fmt.Sprintf("%s %s set to %s", scope, name, string(b)), ""
}
