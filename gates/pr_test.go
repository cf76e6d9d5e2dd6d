package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
)

// TestChecksTakePR: the checks that read one pull request take `pr`; with it they are
// PRChecks (the engine puts the pull request named in f.PR) that keep what the engine reads
// of them (the group of human_approved's from, label_present's independence of the head).
func TestChecksTakePR(t *testing.T) {
	for _, tt := range []struct {
		gate          engine.Gate
		check, params string
	}{
		{LabelPresent{}, "label_present", `{label: ok, pr: "{{ context.prs[1] }}"}`},
		{NoChangesRequested{}, "no_changes_requested", `{pr: all}`},
		{HumanApproved{}, "human_approved", `{count: 1, pr: all}`},
		{HumanApproved{}, "human_approved", `{from: maintainers, pr: "{{ context.prs[0] }}"}`},
		{CIStatus{}, "ci_status", `{pr: all}`},
		{PRApprovalsMet{}, "pr_approvals_met", `{pr: all, scope: agents}`},
		{PRApprovalsMet{}, "pr_approvals_met", `{pr: "{{ context.prs[1] }}"}`},
	} {
		c := mustCompile(t, tt.gate, tt.check, tt.params)
		pc, ok := c.(engine.PRCheck)
		require.True(t, ok, tt.check)
		require.NotNil(t, pc.PR(), tt.check)
	}
	c := mustCompile(t, LabelPresent{}, "label_present", `{label: ok, pr: all}`)
	assert.True(t, c.(model.HeadIndependent).HeadIndependent())
	assert.Equal(t, model.GatePass, c.Evaluate(facts(labels("ok"))).Status)
	assert.Equal(t, model.GatePending, c.Evaluate(facts()).Status)
	h := mustCompile(t, HumanApproved{}, "human_approved", `{from: maintainers, pr: all}`)
	assert.Equal(t, "maintainers", h.(GroupRef).Group())
	n := mustCompile(t, NoChangesRequested{}, "no_changes_requested", `{pr: all}`)
	assert.Equal(t, model.GateFail, n.Evaluate(facts(review("bob", model.ReviewChangesRequested, head))).Status)
	// pr_approvals_met with pr is given the ledger of the pull request it names.
	a := mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", `{pr: all}`)
	assert.True(t, a.(engine.LedgerCheck).ReadsLedger())
	// Without pr, they read the run's own pull request.
	assert.Nil(t, mustCompile(t, PRApprovalsMet{}, "pr_approvals_met", `{}`).(engine.PRCheck).PR())
	_, ok := mustCompile(t, LabelPresent{}, "label_present", `{label: ok}`).(engine.PRCheck)
	assert.False(t, ok)
}
