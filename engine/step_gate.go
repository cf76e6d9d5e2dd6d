package engine

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// evaluate runs the conditions of gate stage against the facts. blocked: a required
// condition does not pass; failed: one has decidedly failed.
func (e *eval) evaluate(stage *lang.Stage) (results []model.GateResult, blocked, failed bool) {
	results = make([]model.GateResult, 0, len(stage.Conditions))
	facts := e.FactsForGates()
	for _, c := range stage.Conditions {
		r := e.check(c, facts)
		r.Check, r.Optional = c.Check, c.Optional
		results = append(results, r)
		if c.Optional || r.Status == model.GatePass {
			continue
		}
		blocked = true
		if r.Status == model.GateFail {
			failed = true
		}
	}
	for _, group := range stage.AnyOf {
		r := e.anyOf(group, facts)
		results = append(results, r)
		if r.Status != model.GatePass {
			blocked = true
			failed = failed || r.Status == model.GateFail
		}
	}
	return results, blocked, failed
}
