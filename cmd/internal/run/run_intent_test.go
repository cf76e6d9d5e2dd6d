package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

const mergeAtOnce = "version: 1\npipelines:\n  p:\n    trigger: {event: pull_request.opened}\n    stages:\n      - {id: m, type: action, action: merge_pr}\n"

// kinds lists the operations the fake served, in order.
func kinds(calls []ghfake.Call) []string {
	out := make([]string, 0, len(calls))
	for _, c := range calls {
		out = append(out, c.Kind)
	}
	return out
}

// The state holding the merge's intent is saved before the merge is performed, and the
// state holding its outcome after it.
func TestRunSavesTheIntentBeforeTheMerge(t *testing.T) {
	h := newHarness(t, mergeAtOnce)
	h.Fake.ResetStats()
	h.OpenPR7()
	assert.True(t, h.Fake.PR("acme/widgets", 7).Merged)
	// The read; the state branch created with the intent committed on it, in one request;
	// the merge; the outcome committed, and the state comment posted and bound.
	assert.Equal(t, []string{"graphql", "graphql", "pulls/merge", "graphql", "issues/create-comment", "issues/update-comment"},
		kinds(h.Fake.Calls()))
	commits := h.Fake.BranchLog("acme/widgets", "pipeline-action/state")
	assert.Equal(t, "pr-7 p: start → m (pull_request.opened by dev)", commits[1].Message, "the intent, saved first")
	assert.Equal(t, "pr-7 p: m → complete (pull_request.opened by dev)", commits[0].Message)
}

// An invocation that cannot save the intent performs nothing; the next event does.
func TestRunDoesNotMergeWhenTheIntentIsNotSaved(t *testing.T) {
	h := newHarness(t, mergeAtOnce)
	// The read goes through; the request that creates the branch with the intent's commit
	// fails.
	h.Fake.Inject("graphql", ghfake.Fault{Status: 502, Message: "Bad Gateway", Skip: 1})
	ev := h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
	code, log, _, _ := h.Deliver(ev)
	assert.Equal(t, 1, code)
	assert.Contains(t, log, "saving the intent of p/7/1/m/1/merge_pr before performing it")
	assert.Contains(t, log, "nothing was performed")
	assert.False(t, h.Fake.PR("acme/widgets", 7).Merged)
	assert.NotContains(t, kinds(h.Fake.Calls()), "pulls/merge")

	code, log, _, _ = h.Deliver(ev) // the re-run
	require.Equal(t, 0, code, log)
	assert.True(t, h.Fake.PR("acme/widgets", 7).Merged)
}
