package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

func TestPRApprovalsMet(t *testing.T) {
	agentOK := model.LedgerStage{Stage: "sec", Kind: lang.StageAgent, Met: true}
	agentOld := model.LedgerStage{Stage: "arch", Kind: lang.StageAgent, Why: "agent arch approved an older commit"}
	humanOK := model.LedgerStage{Stage: "lead", Kind: lang.StageHuman, Met: true}
	humanNo := model.LedgerStage{Stage: "lead", Kind: lang.StageHuman, Why: "lead has 0 of 1 approvals"}
	tests := []struct {
		name, scope string
		stages      []model.LedgerStage
		want        model.GateStatus
		msg         string
	}{
		{"all met", "all", []model.LedgerStage{agentOK, humanOK}, model.GatePass, "2 review stage(s) approved"},
		{"agent on old head", "all", []model.LedgerStage{agentOK, agentOld, humanOK}, model.GatePending, "older commit"},
		{"agents ignore humans", "agents", []model.LedgerStage{agentOK, humanNo}, model.GatePass, "1 review stage(s)"},
		{"humans ignore agents", "humans", []model.LedgerStage{agentOld, humanOK}, model.GatePass, "1 review stage(s)"},
		{"human short", "humans", []model.LedgerStage{humanNo}, model.GatePending, "0 of 1"},
		{"no stage in scope", "humans", []model.LedgerStage{agentOK}, model.GateFail, "no human review stage has run"},
		{"empty", "all", nil, model.GateFail, "no review stage has run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", "{scope: "+tt.scope+"}")
			f := facts()
			f.Ledger = &model.Ledger{Stages: tt.stages}
			r := c.Evaluate(f)
			assert.Equal(t, tt.want, r.Status, r.Message)
			assert.Contains(t, r.Message, tt.msg)
		})
	}
	t.Run("no ledger fails closed", func(t *testing.T) {
		c := mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", "{}")
		assert.Equal(t, model.GateFail, c.Evaluate(facts()).Status)
		assert.Equal(t, model.GateFail, c.Evaluate(nil).Status)
	})
}
