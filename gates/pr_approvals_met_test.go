package gates

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

func TestPRApprovalsMet(t *testing.T) {
	agentOK := engine.LedgerStage{Stage: "sec", Kind: lang.StageAgent, Met: true}
	agentOld := engine.LedgerStage{Stage: "arch", Kind: lang.StageAgent, Why: "agent arch approved an older commit"}
	humanOK := engine.LedgerStage{Stage: "lead", Kind: lang.StageHuman, Met: true}
	humanNo := engine.LedgerStage{Stage: "lead", Kind: lang.StageHuman, Why: "lead has 0 of 1 approvals"}
	tests := []struct {
		name, scope string
		stages      []engine.LedgerStage
		want        engine.GateStatus
		msg         string
	}{
		{"all met", "all", []engine.LedgerStage{agentOK, humanOK}, engine.GatePass, "2 review stage(s) approved"},
		{"agent on old head", "all", []engine.LedgerStage{agentOK, agentOld, humanOK}, engine.GatePending, "older commit"},
		{"agents ignore humans", "agents", []engine.LedgerStage{agentOK, humanNo}, engine.GatePass, "1 review stage(s)"},
		{"humans ignore agents", "humans", []engine.LedgerStage{agentOld, humanOK}, engine.GatePass, "1 review stage(s)"},
		{"human short", "humans", []engine.LedgerStage{humanNo}, engine.GatePending, "0 of 1"},
		{"no stage in scope", "humans", []engine.LedgerStage{agentOK}, engine.GateFail, "no human review stage has run"},
		{"empty", "all", nil, engine.GateFail, "no review stage has run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", "{scope: "+tt.scope+"}")
			f := facts()
			f.Ledger = &engine.Ledger{Stages: tt.stages}
			r := c.Evaluate(f)
			assert.Equal(t, tt.want, r.Status, r.Message)
			assert.Contains(t, r.Message, tt.msg)
		})
	}
	t.Run("no ledger fails closed", func(t *testing.T) {
		c := mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", "{}")
		assert.Equal(t, engine.GateFail, c.Evaluate(facts()).Status)
		assert.Equal(t, engine.GateFail, c.Evaluate(nil).Status)
	})
}
