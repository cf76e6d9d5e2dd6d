package engine

import (
	"github.com/org/pipeline-action/engine/internal/variables"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// initVariables computes p's `variables:` into run.Variables when the run starts, over
// the run's template environment.
func (e *eval) initVariables(p *lang.Pipeline, run *model.Run) {
	if len(p.Variables) > 0 {
		variables.Init(p, run, e.templateEnv(p, run), e.Logf)
	}
}
