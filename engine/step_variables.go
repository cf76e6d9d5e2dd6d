package engine

import (
	"encoding/json"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Variables (seed 002's two namespaces). A pipeline's `variables:` are computed once, when
// a run starts, over the trigger and the facts, and kept in the run (Run.Variables):
// expressions and templates read them as `variables.*`, and the `set_variable` action
// changes them for that run only. The subject's shared variables (State.Shared) are one
// namespace for every pipeline on the subject, read as `shared.*` and written by the
// `set_shared` action; they persist across runs in the subject's state. The two are kept
// apart: writing `variables.x` never changes `shared.x`.

// initVariables computes p's `variables:` into run.Variables when the run starts. A value
// whose template cannot be filled is left out, and the job log says why.
func (e *eval) initVariables(p *lang.Pipeline, run *model.Run) {
	if len(p.Variables) == 0 {
		return
	}
	env := e.templateEnv(p, run)
	vars := map[string]any{}
	for _, kv := range p.Variables {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			e.Logf("run %s: variable %q: %v; left out", run.ID, kv.Key, err)
			continue
		}
		v = lang.JSONValue(v)
		if b, _ := json.Marshal(v); len(b) > model.MaxVariableBytes {
			e.Logf("run %s: variable %q: the value is %d bytes of JSON, more than %d; left out", run.ID, kv.Key, len(b), model.MaxVariableBytes)
			continue
		}
		vars[kv.Key] = v
	}
	run.Variables = vars
}
