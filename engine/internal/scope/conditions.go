package scope

import (
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Check evaluates one condition on facts, with the run in scope.
type Check func(c lang.Condition, facts *model.Facts) model.GateResult

// Conditions runs the conditions of stage (its checks and any_of groups) against facts, each
// through check. blocked: a required condition does not pass; failed: one has decidedly failed.
func Conditions(stage *lang.Stage, facts *model.Facts, check Check) (results []model.GateResult, blocked, failed bool) {
	results = make([]model.GateResult, 0, len(stage.Conditions))
	for _, c := range stage.Conditions {
		r := check(c, facts)
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
		r := anyOf(group, facts, check)
		results = append(results, r)
		if r.Status != model.GatePass {
			blocked = true
			failed = failed || r.Status == model.GateFail
		}
	}
	return results, blocked, failed
}

// A gate's `any_of` groups: one condition of each must pass. A group is shown as one result,
// named after its checks; it passes when one of them passes, has failed when every one has
// decidedly failed, and is pending otherwise. `optional` means nothing inside a group.

// anyOf evaluates one group against facts.
func anyOf(group []lang.Condition, facts *model.Facts, check Check) model.GateResult {
	names := make([]string, 0, len(group))
	msgs := make([]string, 0, len(group))
	allFailed := true
	var who []string
	for _, c := range group {
		r := check(c, facts)
		names = append(names, c.Check)
		if r.Status == model.GatePass {
			return model.GateResult{Check: "any_of(" + strings.Join(model.NamesOf(group), ", ") + ")", Status: model.GatePass,
				Message: c.Check + ": " + r.Message}
		}
		allFailed = allFailed && r.Status == model.GateFail
		msgs = append(msgs, c.Check+": "+r.Message)
		if r.Who != "" && !slices.Contains(who, r.Who) {
			who = append(who, r.Who)
		}
	}
	res := model.GateResult{Check: "any_of(" + strings.Join(names, ", ") + ")", Status: model.GatePending,
		Message: "one of these must hold: " + strings.Join(msgs, "; "), Who: strings.Join(who, ", or ")}
	if allFailed && len(group) > 0 {
		res.Status = model.GateFail
	}
	return res
}
