package engine

import (
	"github.com/org/pipeline-action/engine/internal/snapshot"
	"github.com/org/pipeline-action/engine/model"
)

// Result is the evaluation's result, changed when the state differs from old, the state
// passed in (nil: none yet), by snapshot.Same: Step and Settle return it.
func (e *eval) Result(old *model.State) model.Result {
	if old == nil {
		old = &model.State{Version: 1}
	}
	return e.ResultOf(!snapshot.Same(old, e.St))
}
