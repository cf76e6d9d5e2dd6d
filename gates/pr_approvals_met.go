package gates

import "github.com/org/pipeline-action/engine"

// PRApprovalsMet is the `pr_approvals_met` check of the reference: every review the
// pipeline requires, from agents, humans or both (`scope`), has approved the pull
// request (`pr`, a template, in multi-PR pipelines). It loads and validates; it cannot
// be evaluated until agent approvals are recorded, so a run that reaches it stops.
type PRApprovalsMet struct{}

var _ engine.Gate = PRApprovalsMet{}

// Scopes of pr_approvals_met.
const (
	ScopeAgents = "agents"
	ScopeHumans = "humans"
	ScopeAll    = "all"
)

// Compile reads `scope` (agents | humans | all, default all) and `pr` (a template).
func (PRApprovalsMet) Compile(p *engine.Params) (engine.Check, error) {
	return prApprovalsMet{
		scope: p.Enum("scope", ScopeAll, ScopeAgents, ScopeHumans, ScopeAll),
		pr:    p.Template("pr"),
	}, nil
}

type prApprovalsMet struct {
	scope string
	pr    *engine.Template // nil: the pipeline's own pull request
}

var (
	_ engine.Check       = prApprovalsMet{}
	_ engine.Unsupported = prApprovalsMet{}
)

const prApprovalsMetName = "pr_approvals_met"

// Scope returns whose approvals count: ScopeAgents, ScopeHumans or ScopeAll.
func (c prApprovalsMet) Scope() string { return c.scope }

// PR returns the `pr` template, or nil for the pipeline's own pull request.
func (c prApprovalsMet) PR() *engine.Template { return c.pr }

// Unsupported says what evaluating the check lacks.
func (prApprovalsMet) Unsupported() string {
	return `check "pr_approvals_met" (agent approvals are not recorded yet)`
}

// Evaluate fails closed: the approvals it needs are not recorded yet.
func (c prApprovalsMet) Evaluate(*engine.Facts) engine.GateResult {
	return unsupported(prApprovalsMetName, c)
}
