package gates

import (
	"fmt"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// NoChangesRequested is the `no_changes_requested` check: no user with write access has,
// as their latest opinion, requested changes. A request stays in force after a push, as
// on GitHub, until its author approves or it is dismissed.
type NoChangesRequested struct{}

var _ engine.Gate = NoChangesRequested{}

// Compile takes `pr` and no other parameter.
func (NoChangesRequested) Compile(p *lang.Params) (engine.Check, error) {
	return withPR(p, noChangesRequested{}), nil
}

type noChangesRequested struct{}

var _ engine.Check = noChangesRequested{}

const noChangesRequestedName = "no_changes_requested"

// Evaluate fails while a request for changes from someone with write access stands.
func (noChangesRequested) Evaluate(f *engine.Facts) engine.GateResult {
	if f == nil || f.PR == nil {
		return noPR(noChangesRequestedName) // fail closed
	}
	var blocking, ignored []string
	for _, r := range engine.LatestReviews(f.PR.Reviews) {
		if r.State != engine.ReviewChangesRequested {
			continue
		}
		if r.CanPush {
			blocking = append(blocking, r.Author)
		} else {
			ignored = append(ignored, r.Author)
		}
	}
	res := engine.GateResult{Check: noChangesRequestedName}
	if len(blocking) > 0 {
		res.Status = engine.GateFail
		res.Message = joinAnd(blocking) + " requested changes"
		res.Who = joinAnd(blocking) + engine.Plural(len(blocking), " (approve, or dismiss the review)", " (approve, or dismiss their reviews)")
		return res
	}
	res.Status = engine.GatePass
	res.Message = "no changes requested"
	if len(ignored) > 0 {
		res.Message = fmt.Sprintf("no changes requested by anyone with write access (%s %s no write access)",
			joinAnd(ignored), engine.Plural(len(ignored), "has", "have"))
	}
	return res
}
