package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

func TestLedger(t *testing.T) {
	p := &lang.Pipeline{Name: "p", Stages: []*lang.Stage{
		{ID: "impl", Type: lang.StageAgent, Agent: "coder", AgentAction: "implement"},
		{ID: "sec", Type: lang.StageAgent, Agent: "secbot", AgentAction: "review"},
		{ID: "arch", Type: lang.StageAgent, Agent: "archbot", Verdicts: map[string]*lang.Rule{lang.VerdictReject: {Goto: lang.TargetFail}}},
		{ID: "perf", Type: lang.StageAgent, Agent: "perfbot", AgentAction: "review"},
		{ID: "style", Type: lang.StageAgent, Agent: "lint", AgentAction: "review"},
		{ID: "lead", Type: lang.StageHuman, WaitFor: lang.WaitApproval, Count: 2},
		{ID: "gate", Type: lang.StageGate},
	}}
	f := prFacts()
	f.PR.Reviews = []model.Review{{Author: "bob", State: model.ReviewApproved, CommitSHA: "aaaaaaaaaa", CanPush: true}}
	f.PR.Comments = []model.IssueComment{{ID: 11, Author: "carol", Body: "/pipeline approve"}}
	run := &model.Run{ID: "p/7/1", Pipeline: "p", Stage: "gate", Status: model.RunRunning, Stages: map[string]*model.StageRun{
		"impl": {Status: model.StageSucceeded, Attempt: 1, Verdict: lang.VerdictComplete, HeadSHA: "aaaaaaaaaa"},
		"sec":  {Status: model.StageSucceeded, Attempt: 1, Verdict: lang.VerdictApprove, HeadSHA: "aaaaaaaaaa"},
		"arch": {Status: model.StageSucceeded, Attempt: 2, Verdict: lang.VerdictApprove, HeadSHA: "0000000000"},
		"perf": {Status: model.StageSkipped, Attempt: 1},
		"lead": {Status: model.StageSucceeded, Attempt: 1, Approvals: []model.Approval{{Login: "carol", SHA: "aaaaaaaaaa", Comment: 11}}},
		"gate": {Status: model.StageWaiting, Attempt: 1},
	}}
	e := &eval{&core.Eval{Cfg: &lang.Config{Pipelines: []*lang.Pipeline{p}}, Facts: f}}
	f.People = model.People{Permissions: map[string]string{"carol": "read"}}
	assert.False(t, e.ledger(p, run).Stages[2].Met, "carol's /pipeline approve counts only while she has write access")
	f.People = model.People{Permissions: map[string]string{"carol": "write"}}
	l := e.ledger(p, run)
	require.NotNil(t, l)
	assert.Equal(t, []model.LedgerStage{
		{Stage: "sec", Kind: lang.StageAgent, Met: true},
		{Stage: "arch", Kind: lang.StageAgent, Why: "agent archbot approved an older commit"},
		{Stage: "lead", Kind: lang.StageHuman, Met: true},
	}, l.Stages, "impl is no review, perf was skipped, style never entered")
	assert.Equal(t, []model.LedgerEntry{
		{Stage: "sec", Who: "agent:secbot", Verdict: lang.VerdictApprove, SHA: "aaaaaaaaaa"},
		{Stage: "arch", Who: "agent:archbot", Verdict: lang.VerdictApprove, SHA: "0000000000"},
		{Stage: "lead", Who: "human:bob", Verdict: lang.VerdictApprove, SHA: "aaaaaaaaaa"},
		{Stage: "lead", Who: "human:carol", Verdict: lang.VerdictApprove, SHA: "aaaaaaaaaa"},
	}, l.Entries)

	run.Stages["sec"].Verdict = lang.VerdictReject
	run.Stages["lead"].Approvals = nil
	l = e.ledger(p, run)
	assert.Equal(t, model.LedgerStage{Stage: "sec", Kind: lang.StageAgent, Why: "agent secbot has not approved"}, l.Stages[0])
	assert.Equal(t, model.LedgerStage{Stage: "lead", Kind: lang.StageHuman, Why: "lead has 1 of 2 approvals"}, l.Stages[2])

	// withLedger sets the view on a copy and puts the facts back.
	restore := e.withLedger(p, run)
	assert.NotNil(t, e.Facts.Ledger)
	assert.Nil(t, f.Ledger, "the caller's facts are not changed")
	restore()
	assert.Same(t, f, e.Facts)
}
