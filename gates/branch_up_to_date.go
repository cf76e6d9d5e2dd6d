package gates

import "github.com/org/pipeline-action/engine"

// BranchUpToDate is the `branch_up_to_date` check of the reference: the head branch
// holds every commit of the base. The facts do not compare the two yet, so a run that
// reaches it stops.
type BranchUpToDate struct{}

var _ engine.Gate = BranchUpToDate{}

// Compile takes no parameters.
func (BranchUpToDate) Compile(*engine.Params) (engine.Check, error) { return branchUpToDate{}, nil }

type branchUpToDate struct{}

var (
	_ engine.Check       = branchUpToDate{}
	_ engine.Unsupported = branchUpToDate{}
)

const branchUpToDateName = "branch_up_to_date"

// Unsupported says what evaluating the check lacks.
func (branchUpToDate) Unsupported() string {
	return `check "branch_up_to_date" (the facts do not compare the head with the base yet)`
}

// Evaluate fails closed: the comparison is not in the facts.
func (c branchUpToDate) Evaluate(*engine.Facts) engine.GateResult {
	return unsupported(branchUpToDateName, c)
}
