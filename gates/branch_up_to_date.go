package gates

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// BranchUpToDate is the `branch_up_to_date` check of the reference: the head holds every
// commit of the base branch (GitHub's comparison of base...head is behind by none).
type BranchUpToDate struct{}

var _ engine.Gate = BranchUpToDate{}

// Compile takes no parameters.
func (BranchUpToDate) Compile(*lang.Params) (engine.Check, error) { return branchUpToDate{}, nil }

type branchUpToDate struct{}

var _ engine.Check = branchUpToDate{}

const branchUpToDateName = "branch_up_to_date"

// Evaluate passes when the head is behind its base by no commit; it waits for the author
// to update the branch otherwise, and fails closed when the comparison was not read.
func (c branchUpToDate) Evaluate(f *model.Facts) model.GateResult {
	if f == nil || f.PR == nil {
		return noPR(branchUpToDateName)
	}
	pr := f.PR
	res := model.GateResult{Check: branchUpToDateName}
	switch {
	case pr.BehindBy == nil:
		res.Status, res.Message = model.GateError, fmt.Sprintf("whether the head contains %s was not read", pr.BaseRef)
	case *pr.BehindBy == 0:
		res.Status, res.Message = model.GatePass, fmt.Sprintf("the head contains every commit of %s", pr.BaseRef)
	default:
		n := *pr.BehindBy
		res.Status = model.GatePending
		res.Message = fmt.Sprintf("the head is %d %s behind %s", n, model.Plural(n, "commit", "commits"), pr.BaseRef)
		res.Who = "its author (update the branch)"
	}
	return res
}
