package engine

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// The run's context: a pipeline's `context:` is computed when a run starts, over the
// event as the facts describe it (`trigger.pull_request.*`) and the facts themselves.

// initContext computes p's `context:` into run.Context. A value whose template cannot
// be filled is left out, and the job log says why.
func (e *eval) initContext(p *lang.Pipeline, run *model.Run) {
	if len(p.Context) == 0 {
		return
	}
	env := e.env(p, run)
	env["trigger"] = model.TriggerEnv(e.Facts)
	ctx := map[string]any{}
	for _, kv := range p.Context {
		v, err := lang.ValueOf(kv.Value, env)
		if err != nil {
			e.Logf("run %s: context %q: %v; left out", run.ID, kv.Key, err)
			continue
		}
		ctx[kv.Key] = lang.JSONValue(v)
		env["context"] = ctx
	}
	run.Context = ctx
}
