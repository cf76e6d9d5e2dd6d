package core

import "github.com/org/pipeline-action/engine/model"

// PlannedAction is what an action (of an action stage, or of an on_complete/on_error list)
// asks of GitHub, before it becomes an Effect: done says the action has nothing to do
// (and why), err that it cannot be done (and why).
type PlannedAction struct {
	Eff  model.Effect
	Done string
	Err  string
}
