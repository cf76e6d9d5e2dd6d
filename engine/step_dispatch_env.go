package engine

import (
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// dispatchEnv is what a dispatch of agent ag at stage renders with: the run's whole env
// when the stage's context or config, or the agent's comment, has something to evaluate;
// otherwise the run's context only, all that AgentContext reads then. A parallel stage
// dispatches all its branches in one event, and the whole env (every stage's and every
// branch's entry) built for each would cost with the square of the branches.
func (e *eval) dispatchEnv(p *lang.Pipeline, run *model.Run, stage *lang.Stage, ag *lang.Agent) lang.Env {
	if len(stage.Context) > 0 || len(stage.Values) > 0 || (ag.Dispatch == lang.DispatchComment && strings.Contains(ag.Body, "{{")) {
		return e.env(p, run)
	}
	ctx := make(map[string]any, len(run.Context))
	for k, v := range run.Context {
		ctx[k] = v
	}
	return lang.Env{"context": ctx}
}
