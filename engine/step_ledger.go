package engine

import (
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// The approvals ledger: what the run's review stages approved, and on which head.
// An agent's verdict is recorded as "agent:<name>", a person's review (or /pipeline
// approve) as "human:<login>", each with the head SHA it was given on. The engine sets
// Facts.Ledger while it evaluates the gates of a run; checks read it and never change it.

// Ledger is a read-only view of one run's approvals.
type Ledger struct {
	Entries []LedgerEntry // every approve/reject recorded, in stage order
	Stages  []LedgerStage // the review stages the run entered and did not skip
}

// LedgerEntry is one approval or rejection.
type LedgerEntry struct {
	Stage   string
	Who     string // "agent:<name>" or "human:<login>"
	Verdict string // VerdictApprove or VerdictReject
	SHA     string // the head it was given on
}

// LedgerStage says whether one review stage is met on the current head.
type LedgerStage struct {
	Stage string
	Kind  lang.StageType // StageAgent or StageHuman
	Met   bool
	Why   string // when not met
}

// Ledger kinds of entry.
const (
	LedgerAgent = "agent:"
	LedgerHuman = "human:"
)

// isReviewStage says whether an agent stage reviews: its action is `review`, or it has
// a rule for approve, reject or revise.
func isReviewStage(s *lang.Stage) bool {
	if s.Type != lang.StageAgent {
		return false
	}
	if strings.EqualFold(s.AgentAction, "review") {
		return true
	}
	for _, v := range []string{lang.VerdictApprove, lang.VerdictReject, lang.VerdictRevise} {
		if s.Verdicts[v] != nil {
			return true
		}
	}
	return false
}

// ledger builds the run's ledger against the current facts. Stages the run has not
// entered, or left by `/pipeline skip`, are not required.
func (e *eval) ledger(p *lang.Pipeline, run *Run) *Ledger {
	l := &Ledger{Entries: []LedgerEntry{}, Stages: []LedgerStage{}}
	head := ""
	if e.facts.PR != nil {
		head = e.facts.PR.HeadSHA
	}
	for _, s := range p.Stages {
		sr := run.Stages[s.ID]
		if sr == nil || sr.Status == StageSkipped {
			continue
		}
		switch {
		case isReviewStage(s):
			agentLedger(l, s, sr, head)
		case s.Type == lang.StageParallel:
			branchLedger(l, run, s, head) // step_parallel.go
		case s.Type == lang.StageHuman && s.WaitFor == lang.WaitApproval && e.facts.PR != nil:
			who, need, _ := e.humanCount(run, s, sr)
			for _, w := range who {
				l.Entries = append(l.Entries, LedgerEntry{Stage: s.ID, Who: LedgerHuman + w, Verdict: lang.VerdictApprove, SHA: head})
			}
			ls := LedgerStage{Stage: s.ID, Kind: lang.StageHuman, Met: len(who) >= need}
			if !ls.Met {
				ls.Why = s.ID + " has " + strconv.Itoa(len(who)) + " of " + strconv.Itoa(need) + " approvals"
			}
			l.Stages = append(l.Stages, ls)
		}
	}
	if why := e.reviewedAnother(run); why != "" { // step_ledger_pr.go
		notOn(l, why)
	}
	return l
}

// agentLedger records review stage s (an agent's), whose record is sr, in l.
func agentLedger(l *Ledger, s *lang.Stage, sr *StageRun, head string) {
	ls := LedgerStage{Stage: s.ID, Kind: lang.StageAgent}
	if sr.Verdict == lang.VerdictApprove || sr.Verdict == lang.VerdictReject {
		l.Entries = append(l.Entries, LedgerEntry{Stage: s.ID, Who: LedgerAgent + s.Agent, Verdict: sr.Verdict, SHA: sr.HeadSHA})
	}
	switch {
	case sr.Verdict == "" && sr.Stale != nil && sr.Stale.Verdict == lang.VerdictApprove:
		ls.Why = "agent " + s.Agent + "'s approval is stale (" + sr.Stale.Why + ")"
	case sr.Verdict != lang.VerdictApprove:
		ls.Why = "agent " + s.Agent + " has not approved"
	case head == "" || sr.HeadSHA != head:
		ls.Why = "agent " + s.Agent + " approved an older commit"
	default:
		ls.Met = true
	}
	l.Stages = append(l.Stages, ls)
}

// withLedger sets Facts.Ledger to the run's ledger (on a copy of the facts) and returns
// the function that puts the facts back.
func (e *eval) withLedger(p *lang.Pipeline, run *Run) func() {
	old := e.facts
	f := *e.facts
	f.Ledger = e.ledger(p, run)
	e.facts = &f
	return func() { e.facts = old }
}

// withRun makes the gates evaluated until the returned function is called see run: its
// approvals ledger (withLedger) and its env (RunCheck).
func (e *eval) withRun(p *lang.Pipeline, run *Run) func() {
	restore := e.withLedger(p, run)
	oldEnv, oldRun, oldPipeline := e.gateEnv, e.gateRun, e.gatePipeline
	e.gateRun, e.gatePipeline = run, p
	var env lang.Env
	e.gateEnv = func() lang.Env {
		if env == nil {
			env = e.env(p, run)
		}
		return env
	}
	return func() { restore(); e.gateEnv, e.gateRun, e.gatePipeline = oldEnv, oldRun, oldPipeline }
}

// check evaluates one condition: a RunCheck with the env of the run in scope.
func (e *eval) check(c lang.Condition, facts *Facts) GateResult {
	if authors := e.runAuthors(e.gateRun); len(authors) > 0 {
		f := *facts // authority.go: no author of the run's pull requests approves any of them
		f.RunAuthors = authors
		facts = &f
	}
	if pc, ok := c.Eval.(PRCheck); ok && pc.PR() != nil { // step_multipr.go
		return e.checkPR(c, facts, pc.PR())
	}
	if rc, ok := c.Eval.(RunCheck); ok {
		if e.gateEnv == nil {
			return GateResult{Check: c.Check, Status: GateError, Message: "the check reads the run, and no run is in scope"}
		}
		return rc.EvaluateRun(facts, e.gateEnv())
	}
	return c.Eval.(Check).Evaluate(facts)
}
