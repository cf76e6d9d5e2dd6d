package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// A rate limit on the commit of an intent is no refusal of the state branch: the
// invocation neither drops compare-and-swap for the comment alone nor performs the
// effect, and fails; the next event does it.
func TestRunRateLimitOnTheIntentIsNotAProtectedBranch(t *testing.T) {
	for name, f := range map[string]ghfake.Fault{
		"primary limit spent":                     {Status: 403, Message: "API rate limit exceeded for installation ID 1.", Reset: 3600},
		"secondary limit, a long retry-after":     {Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 600},
		"a 429 that says nothing more":            {Status: 429, Message: "Too Many Requests", RetryAfter: 600},
		"GraphQL's own limit inside a 200 answer": {Status: 200, Message: "API rate limit already exceeded for installation ID 1.", Reset: 3600},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, mergeAtOnce)
			// The read goes through; the request that creates the branch with the intent's
			// commit meets a limit too long to wait out.
			f.Skip = 1
			h.Fake.Inject("graphql", f)
			ev := h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
			code, log, _, _ := h.Deliver(ev)
			assert.Equal(t, 1, code, log)
			assert.Contains(t, log, "nothing was performed")
			assert.NotContains(t, log, "may not be written")
			assert.False(t, h.Fake.PR("acme/widgets", 7).Merged, "merged on an intent that won no compare-and-swap")
			assert.Empty(t, h.Fake.Comments("acme/widgets", 7), "the state went to the comment alone")

			code, log, _, _ = h.Deliver(ev) // the re-run
			require.Equal(t, 0, code, log)
			assert.True(t, h.Fake.PR("acme/widgets", 7).Merged)
			assert.Len(t, h.Fake.Comments("acme/widgets", 7), 1)
		})
	}
}
