package engine

import (
	"encoding/json"
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
)

// Variables (seed 002's two namespaces). A pipeline's `variables:` are computed once, when
// a run starts, over the trigger and the facts, and kept in the run (Run.Variables):
// expressions and templates read them as `variables.*`, and the `set_variable` action
// changes them for that run only. The subject's shared variables (State.Shared) are one
// namespace for every pipeline on the subject, read as `shared.*` and written by the
// `set_shared` action; they persist across runs in the subject's state. The two are kept
// apart: writing `variables.x` never changes `shared.x`.

// Bounds on what set_variable and set_shared keep in the state (which a comment holds too).
const (
	MaxVariableBytes = 2048 // the JSON of one value
	MaxVariables     = 50   // names in one namespace
)

// initVariables computes p's `variables:` into run.Variables when the run starts. A value
// whose template cannot be filled is left out, and the job log says why.
func (e *eval) initVariables(p *lang.Pipeline, run *Run) {
	if len(p.Variables) == 0 {
		return
	}
	env := e.templateEnv(p, run)
	vars := map[string]any{}
	for _, kv := range p.Variables {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			e.logf("run %s: variable %q: %v; left out", run.ID, kv.Key, err)
			continue
		}
		v = lang.JSONValue(v)
		if b, _ := json.Marshal(v); len(b) > MaxVariableBytes {
			e.logf("run %s: variable %q: the value is %d bytes of JSON, more than %d; left out", run.ID, kv.Key, len(b), MaxVariableBytes)
			continue
		}
		vars[kv.Key] = v
	}
	run.Variables = vars
}

// runVariables is what `variables` reads for run: the values kept in the run, or — for a
// run started before they were kept — p's `variables:` computed over env and the trigger.
func (e *eval) runVariables(p *lang.Pipeline, run *Run, env lang.Env) map[string]any {
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
	with := lang.Env{"trigger": triggerEnv(e.facts)}
	for k, v := range env {
		with[k] = v
	}
	for _, kv := range p.Variables {
		if v, err := lang.ValueOf(kv.Value, with); err == nil {
			if b, _ := json.Marshal(v); len(b) <= MaxVariableBytes {
				vars[kv.Key] = v
			}
		}
	}
	return vars
}

// sharedVariables is what `shared` reads: a copy of the subject's shared variables.
func (e *eval) sharedVariables() map[string]any {
	out := map[string]any{}
	for k, v := range e.st.Shared {
		out[k] = v
	}
	return out
}

// planSetVariable sets a run variable (set_variable) or a shared one (set_shared) to value
// computed over env. It asks GitHub for nothing: the plan is done, or an error.
func (e *eval) planSetVariable(run *Run, action, name string, value lang.Value, env lang.Env) plannedAction {
	if !lang.VariableName.MatchString(name) {
		return plannedAction{err: fmt.Sprintf("%s: %q is not a variable name (letters, digits and _, starting with a letter or _)", action, name)}
	}
	v, err := lang.ValueOf(value, env)
	if err != nil {
		return plannedAction{err: fmt.Sprintf("%s %q: %v", action, name, err)}
	}
	v = lang.JSONValue(v)
	b, _ := json.Marshal(v)
	if len(b) > MaxVariableBytes {
		return plannedAction{err: fmt.Sprintf("%s %q: the value is %d bytes of JSON, more than %d", action, name, len(b), MaxVariableBytes)}
	}
	target := &run.Variables
	scope := "variable"
	if action == lang.ActionSetShared {
		target, scope = &e.st.Shared, "shared variable"
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
	if _, ok := (*target)[name]; !ok && len(*target) >= MaxVariables {
		return plannedAction{err: fmt.Sprintf("%s %q: there are %d %ss already, the most kept", action, name, MaxVariables, scope)}
	}
	(*target)[name] = v
	return plannedAction{done: fmt.Sprintf("%s %s set to %s", scope, name, string(b))}
}
