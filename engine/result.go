package engine

import "github.com/org/pipeline-action/engine/internal/snapshot"

// Result is the evaluation's result, changed when the state differs from old, the state
// passed in (nil: none yet), by snapshot.Same: Step and Settle return it.
func (e *eval) Result(old *State) Result {
	if old == nil {
		old = &State{Version: 1}
	}
	return e.ResultOf(!snapshot.Same(old, e.St))
}
