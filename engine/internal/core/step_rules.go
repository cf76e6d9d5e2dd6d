package core

import (
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

// Rule names, as parts of Run.Iterations' keys and of effect keys.
const (
	RuleOnFail      = "on_fail"
	RuleOnConflict  = "on_conflict"
	RuleOnCIFailure = "on_ci_failure"
)

func FailedMessage(rs []model.GateResult, check string) string {
	for _, r := range rs {
		if r.Check == check && r.Status == model.GateFail {
			return r.Message
		}
	}
	return ""
}

// FailedChecks names the checks on the head that failed, or "".
func FailedChecks(pr *model.PullRequest) string {
	var names []string
	for _, c := range pr.Checks {
		if c.State == model.CheckFailure && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}
