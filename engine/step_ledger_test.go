package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLedger(t *testing.T) {
	p := &Pipeline{Name: "p", Stages: []*Stage{
		{ID: "impl", Type: StageAgent, Agent: "coder", AgentAction: "implement"},
		{ID: "sec", Type: StageAgent, Agent: "secbot", AgentAction: "review"},
		{ID: "arch", Type: StageAgent, Agent: "archbot", Verdicts: map[string]*Rule{VerdictReject: {Goto: TargetFail}}},
		{ID: "perf", Type: StageAgent, Agent: "perfbot", AgentAction: "review"},
		{ID: "style", Type: StageAgent, Agent: "lint", AgentAction: "review"},
		{ID: "lead", Type: StageHuman, WaitFor: WaitApproval, Count: 2},
		{ID: "gate", Type: StageGate},
	}}
	f := prFacts()
	f.PR.Reviews = []Review{{Author: "bob", State: ReviewApproved, CommitSHA: "aaaaaaaaaa", CanPush: true}}
	run := &Run{ID: "p/7/1", Pipeline: "p", Stage: "gate", Status: RunRunning, Stages: map[string]*StageRun{
		"impl": {Status: StageSucceeded, Attempt: 1, Verdict: VerdictComplete, HeadSHA: "aaaaaaaaaa"},
		"sec":  {Status: StageSucceeded, Attempt: 1, Verdict: VerdictApprove, HeadSHA: "aaaaaaaaaa"},
		"arch": {Status: StageSucceeded, Attempt: 2, Verdict: VerdictApprove, HeadSHA: "0000000000"},
		"perf": {Status: StageSkipped, Attempt: 1},
		"lead": {Status: StageSucceeded, Attempt: 1, Approvals: []Approval{{Login: "carol", SHA: "aaaaaaaaaa"}}},
		"gate": {Status: StageWaiting, Attempt: 1},
	}}
	e := &eval{cfg: &Config{Pipelines: []*Pipeline{p}}, facts: f}
	f.People = People{Permissions: map[string]string{"carol": "read"}}
	assert.False(t, e.ledger(p, run).Stages[2].Met, "carol's /pipeline approve counts only while she has write access")
	f.People = People{Permissions: map[string]string{"carol": "write"}}
	l := e.ledger(p, run)
	require.NotNil(t, l)
	assert.Equal(t, []LedgerStage{
		{Stage: "sec", Kind: StageAgent, Met: true},
		{Stage: "arch", Kind: StageAgent, Why: "agent archbot approved an older commit"},
		{Stage: "lead", Kind: StageHuman, Met: true},
	}, l.Stages, "impl is no review, perf was skipped, style never entered")
	assert.Equal(t, []LedgerEntry{
		{Stage: "sec", Who: "agent:secbot", Verdict: VerdictApprove, SHA: "aaaaaaaaaa"},
		{Stage: "arch", Who: "agent:archbot", Verdict: VerdictApprove, SHA: "0000000000"},
		{Stage: "lead", Who: "human:bob", Verdict: VerdictApprove, SHA: "aaaaaaaaaa"},
		{Stage: "lead", Who: "human:carol", Verdict: VerdictApprove, SHA: "aaaaaaaaaa"},
	}, l.Entries)

	run.Stages["sec"].Verdict = VerdictReject
	run.Stages["lead"].Approvals = nil
	l = e.ledger(p, run)
	assert.Equal(t, LedgerStage{Stage: "sec", Kind: StageAgent, Why: "agent secbot has not approved"}, l.Stages[0])
	assert.Equal(t, LedgerStage{Stage: "lead", Kind: StageHuman, Why: "lead has 1 of 2 approvals"}, l.Stages[2])

	// withLedger sets the view on a copy and puts the facts back.
	restore := e.withLedger(p, run)
	assert.NotNil(t, e.facts.Ledger)
	assert.Nil(t, f.Ledger, "the caller's facts are not changed")
	restore()
	assert.Same(t, f, e.facts)
}
