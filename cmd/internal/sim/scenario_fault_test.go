package sim

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fault no call met is dropped at the end of the next step that delivers events: the
// merge of a later step is served. keep: true keeps it for the merge, which it refuses.
func TestFaultDroppedAfterNextDelivery(t *testing.T) {
	const story = devsPR + `  - fault: {operation: pulls/merge, status: 502%s}
  - review: {pr: 7, user: alice, state: approved}
  - check: {pr: 7, name: test}
expect:
  prs: {7: {merged: %t}}
`
	for _, tc := range []struct {
		keep   string
		merged bool
	}{{"", true}, {", keep: true", false}} {
		sim, out := newSim(t, fmt.Sprintf(story, tc.keep, tc.merged), "")
		failed, err := sim.play(t.Context())
		require.NoError(t, err, out.String())
		require.Zero(t, failed, out.String())
		if tc.keep == "" {
			assert.Contains(t, out.String(), "(the fault of step 2 is dropped")
		} else {
			assert.NotContains(t, out.String(), "is dropped")
		}
	}
}

// A performed fault serves the merge and loses its answer: the pull request is merged
// although the action was told 502.
func TestFaultPerformedMerges(t *testing.T) {
	for _, performed := range []bool{false, true} {
		sim, out := newSim(t, fmt.Sprintf(devsPR+`  - review: {pr: 7, user: alice, state: approved}
  - fault: {operation: pulls/merge, status: 502, performed: %t}
  - check: {pr: 7, name: test}
  - expect: {prs: {7: {merged: %t}}}
`, performed, performed), "")
		failed, err := sim.play(t.Context())
		require.NoError(t, err, out.String())
		require.Zero(t, failed, out.String())
	}
}

// A GraphQL fault for one field meets the state write (createCommitOnBranch), not the
// reads before it: the state is not written. What count leaves unused is dropped.
func TestFaultGraphQLFieldCount(t *testing.T) {
	sim, out := newSim(t, `
repo: acme/widgets
users: {dev: write}
steps:
  - fault: {operation: graphql, field: createCommitOnBranch, errors: [SERVICE_UNAVAILABLE], count: 2}
  - open_pr: {number: 7, author: dev}
`, "")
	sim.verbose = true
	_, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	assert.NotContains(t, sim.fake.BranchFiles("acme/widgets", "pipeline-action/state"), "pr-7.json")
	assert.Contains(t, out.String(), "── step 1: fault: the next 2 graphql calls selecting createCommitOnBranch answer 200 with the errors SERVICE_UNAVAILABLE")
	assert.Contains(t, out.String(), "run auto-merge/7/1 started", "the reads were served")
	assert.Contains(t, out.String(), "createCommitOnBranch on pipeline-action/state: Something went wrong")
	assert.Contains(t, out.String(), "(the fault of step 1 is dropped")
}

// until fails every matching call until the scenario's clock passes it: two merges in the
// window are refused, the one after it is served.
func TestFaultUntil(t *testing.T) {
	sim, out := newSim(t, `
repo: acme/widgets
users: {alice: write, dev: write}
steps:
  - fault: {operation: pulls/merge, status: 503, until: 10m}
  - open_pr: {number: 7, author: dev}
  - review: {pr: 7, user: alice, state: approved}
  - check: {pr: 7, name: test}
  - check: {pr: 7, name: test}
  - expect: {prs: {7: {merged: false}}}
  - advance: 11m
  - check: {pr: 7, name: test}
expect:
  prs: {7: {merged: true}}
`, "")
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	require.Zero(t, failed, out.String())
	assert.Contains(t, out.String(), "── step 1: fault: every pulls/merge until 2026-01-05T09:10:00Z answers 503")
	assert.NotContains(t, out.String(), "is dropped")
}

// Mistakes in a fault step are refused at the step's position.
func TestFaultMistakes(t *testing.T) {
	for _, tc := range []struct{ fault, want string }{
		{"{operation: graphql, errors: [RATE_LIMTED]}", `unknown GraphQL error type "RATE_LIMTED"; did you mean "RATE_LIMITED"?`},
		{"{operation: pulls/merge, errors: [FORBIDDEN]}", "errors, partial and field are for operation: graphql"},
		{"{operation: graphql, partial: true, status: 502}", "partial adds errors to the data; give errors"},
		{"{operation: graphql, errors: [FORBIDDEN], status: 502}", "errors are answered in a 200; they take no status"},
		{"{operation: pulls/merge, status: 502, count: 2, until: 1m}", "not both"},
		{"{operation: pulls/merge, performed: true}", "fault needs a status of 400 or more"},
	} {
		dir := writeScenario(t, "repo: acme/widgets\nsteps:\n  - fault: "+tc.fault+"\nexpect: {prs: {7: {merged: true}}}\n")
		code, _, errOut := simulate(t, dir, "-q")
		assert.Equal(t, 2, code, tc.fault)
		assert.Contains(t, errOut, filepath.Join(dir, "scenario.yaml")+":3:5: ", tc.fault)
		assert.Contains(t, errOut, tc.want, tc.fault)
	}
}
