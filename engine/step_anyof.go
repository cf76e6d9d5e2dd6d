package engine

import (
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// A gate's `any_of` groups: one condition of each must pass. A group is shown as one result,
// named after its checks; it passes when one of them passes, has failed when every one has
// decidedly failed, and is pending otherwise. `optional` means nothing inside a group.

// anyOf evaluates one group against facts.
func (e *eval) anyOf(group []lang.Condition, facts *model.Facts) model.GateResult {
	names := make([]string, 0, len(group))
	msgs := make([]string, 0, len(group))
	allFailed := true
	var who []string
	for _, c := range group {
		r := e.check(c, facts)
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
