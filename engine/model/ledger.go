package model

import "github.com/org/pipeline-action/engine/lang"

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
