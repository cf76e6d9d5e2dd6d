package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
)

func TestBranchUpToDate(t *testing.T) {
	c := mustCompile(t, BranchUpToDate{}, "branch_up_to_date", "{}")
	behind := func(n int) prOpt { return func(pr *model.PullRequest) { pr.BehindBy = &n } }
	assert.Equal(t, model.GateResult{Check: "branch_up_to_date", Status: model.GatePass, Message: "the head contains every commit of main"},
		c.Evaluate(facts(behind(0))))
	assert.Equal(t, model.GateResult{Check: "branch_up_to_date", Status: model.GatePending, Message: "the head is 2 commits behind main",
		Who: "its author (update the branch)"}, c.Evaluate(facts(behind(2))))
	assert.Equal(t, model.GateError, c.Evaluate(facts()).Status, "not read: fails closed")
	assert.Equal(t, model.GateError, c.Evaluate(nil).Status)
}
