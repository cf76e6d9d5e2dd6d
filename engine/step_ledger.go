package engine

import (
	"strconv"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/agentreview"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// The approvals ledger: what the run's review stages approved, and on which head.
// An agent's verdict is recorded as "agent:<name>", a person's review (or /pipeline
// approve) as "human:<login>", each with the head SHA it was given on. The engine sets
// Facts.Ledger while it evaluates the gates of a run; checks read it and never change it.

// ledger builds the run's ledger against the current facts. Stages the run has not
// entered, or left by `/pipeline skip`, are not required.
func (e *eval) ledger(p *lang.Pipeline, run *model.Run) *model.Ledger {
	l := &model.Ledger{Entries: []model.LedgerEntry{}, Stages: []model.LedgerStage{}}
	head := ""
	if e.Facts.PR != nil {
		head = e.Facts.PR.HeadSHA
	}
	for _, s := range e.LedgerStages(p) { // the gates before them give it nothing
		sr := run.Stages[s.ID]
		if sr == nil || sr.Status == model.StageSkipped {
			continue
		}
		switch {
		case model.IsReviewStage(s):
			model.AgentLedger(l, s, sr, head)
		case s.Type == lang.StageParallel:
			core.BranchLedger(l, run, s, head)
		case s.Type == lang.StageHuman && s.WaitFor == lang.WaitApproval && e.Facts.PR != nil:
			who, need, _ := e.Rules().HumanCount(run, s, sr)
			for _, w := range who {
				l.Entries = append(l.Entries, model.LedgerEntry{Stage: s.ID, Who: model.LedgerHuman + w, Verdict: lang.VerdictApprove, SHA: head})
			}
			ls := model.LedgerStage{Stage: s.ID, Kind: lang.StageHuman, Met: len(who) >= need}
			if !ls.Met {
				ls.Why = s.ID + " has " + strconv.Itoa(len(who)) + " of " + strconv.Itoa(need) + " approvals"
			}
			l.Stages = append(l.Stages, ls)
		}
	}
	e.dropWithdrawn(p, run, l)
	if why := e.ReviewedAnother(run); why != "" {
		core.NotOn(l, why)
	}
	return l
}

// dropWithdrawn takes out of l the verdicts of run's agents whose review GitHub has since
// dismissed (agentreview.Dismissed): a dismissed review leaves the ledger, and its stage
// is not met.
func (e *eval) dropWithdrawn(p *lang.Pipeline, run *model.Run, l *model.Ledger) {
	pr := e.RunPR(run)
	if pr == nil {
		pr = e.Facts.PR
	}
	gone := map[string]string{}
	for _, s := range p.Stages {
		for _, b := range append([]*lang.Stage{s}, s.Branches...) {
			sr, ag := run.Stages[b.ID], e.Cfg.Agent(b.Agent)
			if b.Type == lang.StageAgent && sr != nil && ag != nil && pr != nil {
				if why := agentreview.Dismissed(pr, b.Agent, ag.ReviewLogin(), sr); why != "" {
					gone[b.ID] = why
				}
			}
		}
	}
	kept := l.Entries[:0]
	for _, en := range l.Entries {
		if gone[en.Stage] == "" { // stage ids are unique: an agent stage's entries are its agent's
			kept = append(kept, en)
		}
	}
	l.Entries = kept
	for i, ls := range l.Stages {
		if why := gone[ls.Stage]; why != "" && ls.Kind == lang.StageAgent {
			l.Stages[i].Met, l.Stages[i].Why = false, why
		}
	}
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
			env = e.env(p, run)
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
	if authors := e.RunAuthors(gateRun); len(authors) > 0 {
		f := *facts // no author of the run's pull requests approves any of them
		f.RunAuthors = authors
		facts = &f
	}
	if pc, ok := c.Eval.(PRCheck); ok && pc.PR() != nil {
		return e.checkPR(c, facts, pc.PR())
	}
	if rc, ok := c.Eval.(RunCheck); ok {
		if e.Gate == nil {
			return model.GateResult{Check: c.Check, Status: model.GateError, Message: "the check reads the run, and no run is in scope"}
		}
		return rc.EvaluateRun(facts, e.Gate.Env())
	}
	return c.Eval.(Check).Evaluate(facts)
}
