package model

import (
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

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

// IsReviewStage says whether an agent stage reviews: its action is `review`, or it has
// a rule for approve, reject or revise.
func IsReviewStage(s *lang.Stage) bool {
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

// AgentLedger records review stage s (an agent's), whose record is sr, in l.
func AgentLedger(l *Ledger, s *lang.Stage, sr *StageRun, head string) {
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
