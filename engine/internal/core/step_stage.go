package core

import (
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// HoldAction keeps an action stage waiting, without calling GitHub, for a reason its
// facts show (a draft, conflicts).
func (e *Eval) HoldAction(run *model.Run, stage *lang.Stage, why, who string) bool {
	sr := run.Stages[stage.ID]
	sr.Status = model.StageWaiting
	sr.Results = []model.GateResult{{Check: "mergeable", Status: model.GatePending, Message: why, Who: who}}
	run.Status = model.RunWaiting
	return false
}

// hasLabel reports whether labels holds label name, compared as GitHub compares labels.
func HasLabel(labels []string, name string) bool {
	for _, l := range labels {
		if lang.SameLabel(l, name) {
			return true
		}
	}
	return false
}

// OpenIntent returns the intent of run still in flight, if any.
func OpenIntent(run *model.Run) (model.Intent, bool) {
	if len(run.Intents) == 0 {
		return model.Intent{}, false
	}
	return run.Intents[0], true
}
