package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The lifecycle's merge event sends the status comment's edit alongside the outcome's
// commit: read → intent → merge → outcome, 4 in a row, the floor while the merge's intent
// is written ahead of it. The other events keep their chains, and the requests their count.
func TestLifecycleRequestsInARow(t *testing.T) {
	code, out, errOut := simulate(t, "testdata/scenarios/lifecycle-cost", "-q", "--stats")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Regexp(t, `step  1 .*· 3 in a row\n`, out)
	assert.Regexp(t, `step  4 .*graphql 3, issues/update-comment 1, pulls/merge 1 · 4 in a row\n`, out)
	assert.Contains(t, out, "12 requests, 8 content-creating")
	assert.Contains(t, out, "11 in a row over the steps (the most in one step: 4)")
}
