package core

import (
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// ListOutcome logs the outcome of an effect of a pipeline's list, and reports whether o is
// one: it changes nothing (the run is final).
func (e *Eval) ListOutcome(o model.Outcome) bool {
	parts := strings.Split(o.Key, "/")
	if len(parts) < 4 {
		return false
	}
	switch parts[len(parts)-3] {
	case model.ListOnComplete, model.ListOnError, model.RuleOnFail, model.RuleOnConflict, model.RuleOnCIFailure, ReactOnEvents:
	default:
		return false
	}
	if o.Err == "" {
		e.Logf("%s done", o.Key)
	} else {
		e.Logf("%s: %s; a pipeline's list is not tried again", o.Key, o.Err)
	}
	return true
}
