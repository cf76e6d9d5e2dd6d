package engine

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/ledger"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/internal/subject"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// ledger is run's approvals ledger, against the current facts.
func (e *eval) ledger(p *lang.Pipeline, run *model.Run) *model.Ledger {
	return ledger.Of(ledgerSource{e}, p, run)
}

// ledgerSource is the approvals ledger's view of the evaluation.
type ledgerSource struct{ e *eval }

func (s ledgerSource) PR() *model.PullRequest                  { return s.e.Facts.PR }
func (s ledgerSource) Stages(p *lang.Pipeline) []*lang.Stage   { return s.e.LedgerStages(p) }
func (s ledgerSource) RunPR(run *model.Run) *model.PullRequest { return s.e.RunPR(run) }
func (s ledgerSource) Agent(name string) *lang.Agent           { return s.e.Cfg.Agent(name) }
func (s ledgerSource) ReviewedAnother(run *model.Run) string   { return s.e.ReviewedAnother(run) }
func (s ledgerSource) Approvals(run *model.Run, st *lang.Stage, sr *model.StageRun) ([]string, int) {
	who, need, _ := s.e.Rules().HumanCount(run, st, sr)
	return who, need
}

// withLedger sets Facts.Ledger to the run's ledger (on a copy of the facts) and returns
// the function that puts the facts back.
func (e *eval) withLedger(p *lang.Pipeline, run *model.Run) func() {
	old := e.Facts
	f := *e.Facts
	f.Ledger = e.ledger(p, run)
	e.Facts = &f
	return func() { e.Facts = old }
}

// withRun makes the gates evaluated until the returned function is called see run: its
// approvals ledger (withLedger) and its env (RunCheck).
func (e *eval) withRun(p *lang.Pipeline, run *model.Run) func() {
	restore := e.withLedger(p, run)
	old := e.Gate
	var env lang.Env
	e.Gate = &core.GateScope{Run: run, Pipeline: p, Env: func() lang.Env {
		if env == nil {
			env = scope.Env(scopeKernel{e}, p, run)
		}
		return env
	}}
	return func() { restore(); e.Gate = old }
}

// check evaluates one condition: a RunCheck with the env of the run in scope.
func (e *eval) check(c lang.Condition, facts *model.Facts) model.GateResult {
	var gateRun *model.Run
	if e.Gate != nil {
		gateRun = e.Gate.Run
	}
	if authors := core.Kind(e.Eval, gateRun).Authors(core.Scope(e.Eval), gateRun); len(authors) > 0 {
		f := *facts // no author of the run's pull requests approves any of them
		f.RunAuthors = authors
		facts = &f
	}
	if pc, ok := c.Eval.(PRCheck); ok && pc.PR() != nil {
		return subject.CheckPR(subjectKernel{e}, c, facts, pc.PR())
	}
	if rc, ok := c.Eval.(RunCheck); ok {
		if e.Gate == nil {
			return model.GateResult{Check: c.Check, Status: model.GateError, Message: "the check reads the run, and no run is in scope"}
		}
		return rc.EvaluateRun(facts, e.Gate.Env())
	}
	return c.Eval.(Check).Evaluate(facts)
}

// conditions evaluates the conditions of s with the run the gates see in scope.
func conditions(e *eval, s *lang.Stage) ([]model.GateResult, bool, bool) {
	return scope.Conditions(s, e.FactsForGates(), e.check)
}
