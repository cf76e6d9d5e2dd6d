package core

import (
	"encoding/json"
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// RunVariables is what `variables` reads for run: the values kept in the run, or — for a
// run started before they were kept — p's `variables:` computed over env and the trigger.
func (e *Eval) RunVariables(p *lang.Pipeline, run *model.Run, env lang.Env) map[string]any {
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
	with := lang.Env{"trigger": model.TriggerEnv(e.Facts)}
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

// SharedVariables is what `shared` reads: a copy of the subject's shared variables, over
// the defaults pipelines declare in `session_variables:`.
func (e *Eval) SharedVariables() map[string]any {
	out := map[string]any{}
	for _, kv := range e.Cfg.SharedDefaults {
		if v, err := lang.ValueOf(kv.Value, nil); err == nil {
			out[kv.Key] = lang.JSONValue(v)
		}
	}
	for k, v := range e.St.Shared {
		out[k] = v
	}
	return out
}

// PlanSetVariable sets a run variable (set_variable) or a shared one (set_shared) to value
// computed over env. It asks GitHub for nothing: the plan is done, or an error.
func (e *Eval) PlanSetVariable(run *model.Run, action, name string, value lang.Value, env lang.Env) PlannedAction {
	if !lang.VariableName().MatchString(name) {
		return PlannedAction{Err: fmt.Sprintf("%s: %q is not a variable name (letters, digits and _, starting with a letter or _)", action, name)}
	}
	v, err := lang.ValueOf(value, env)
	if err != nil {
		return PlannedAction{Err: fmt.Sprintf("%s %q: %v", action, name, err)}
	}
	v = lang.JSONValue(v)
	b, _ := json.Marshal(v)
	if len(b) > model.MaxVariableBytes {
		return PlannedAction{Err: fmt.Sprintf("%s %q: the value is %d bytes of JSON, more than %d", action, name, len(b), model.MaxVariableBytes)}
	}
	target := &run.Variables
	scope := "variable"
	if action == lang.ActionSetShared {
		target, scope = &e.St.Shared, "shared variable"
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
		return PlannedAction{Err: fmt.Sprintf("%s %q: there are %d %ss already, the most kept", action, name, model.MaxVariables, scope)}
	}
	(*target)[name] = v
	return PlannedAction{Done: fmt.Sprintf("%s %s set to %s", scope, name, string(b))}
}
