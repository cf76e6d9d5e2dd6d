package gates

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// PRApprovalsMet is the `pr_approvals_met` check of the reference: every review the
// pipeline requires, from agents, humans or both (`scope`), has approved the pull
// request (`pr`, a template, in multi-PR pipelines: the approvals given on that pull
// request, by the run's review stages and its child runs' whose pull request it is). It is
// evaluated against the approvals ledger the engine gives it (Facts.Ledger).
type PRApprovalsMet struct{}

var _ engine.Gate = PRApprovalsMet{}

// Scopes of pr_approvals_met.
const (
	ScopeAgents = "agents"
	ScopeHumans = "humans"
	ScopeAll    = "all"
)

// Compile reads `scope` (agents | humans | all, default all) and `pr` (a template).
func (PRApprovalsMet) Compile(p *lang.Params) (engine.Check, error) {
	c := prApprovalsMet{
		scope: p.Enum("scope", ScopeAll, ScopeAgents, ScopeHumans, ScopeAll),
		pr:    p.Template("pr"),
	}
	return c, nil
}

type prApprovalsMet struct {
	scope string
	pr    *lang.Template // nil: the pipeline's own pull request
}

var _ engine.Check = prApprovalsMet{}

const prApprovalsMetName = "pr_approvals_met"

// Scope returns whose approvals count: ScopeAgents, ScopeHumans or ScopeAll.
func (c prApprovalsMet) Scope() string { return c.scope }

// PR returns the `pr` template, or nil for the pipeline's own pull request.
func (c prApprovalsMet) PR() *lang.Template { return c.pr }

// ReadsLedger says the check reads the approvals ledger: on another pull request of the
// run (`pr`), the engine gives it that pull request's ledger.
func (prApprovalsMet) ReadsLedger() bool { return true }

// Evaluate reads the approvals ledger it is given (Facts.Ledger): the run's, or with `pr`
// the ledger of the pull request named (the engine builds it: the review stages whose run's
// pull request it is). Every review stage in scope must be met on the current head. It
// fails closed without a ledger and when no stage is in scope; a `pr` that names no pull
// request of the run fails before it is evaluated (engine.checkPR).
func (c prApprovalsMet) Evaluate(f *model.Facts) model.GateResult {
	r := model.GateResult{Check: prApprovalsMetName}
	switch {
	case f == nil || f.Ledger == nil || f.PR == nil:
		r.Status, r.Message = model.GateFail, "no approvals ledger for this run"
		return r
	}
	var missing []string
	n := 0
	for _, s := range f.Ledger.Stages {
		if (c.scope == ScopeAgents && s.Kind != lang.StageAgent) || (c.scope == ScopeHumans && s.Kind != lang.StageHuman) {
			continue
		}
		n++
		if !s.Met {
			missing = append(missing, s.Why)
		}
	}
	switch {
	case n == 0:
		r.Status, r.Message = model.GateFail, "no "+c.scopeWord()+"review stage has run"
	case len(missing) > 0:
		r.Status, r.Message = model.GatePending, strings.Join(missing, "; ")
	default:
		r.Status, r.Message = model.GatePass, fmt.Sprintf("%d review stage(s) approved %s", n, shortSHA(f.PR.HeadSHA))
	}
	return r
}

func (c prApprovalsMet) scopeWord() string {
	if c.scope == ScopeAll {
		return ""
	}
	return strings.TrimSuffix(c.scope, "s") + " "
}
