package ghapi_test

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// GraphQL's rate limit comes as a 200 whose errors say RATE_LIMITED: it is waited out
// and the query sent again, as a REST limit is, not taken for a failed query.
func TestGraphQLRateLimitedIsRetried(t *testing.T) {
	for _, tt := range []struct {
		name  string
		fault ghfake.Fault
		wait  time.Duration
	}{
		{"without a reset: as a secondary limit", ghfake.Fault{Status: 200, Message: "API rate limit already exceeded for installation ID 1."}, time.Minute},
		{"with a reset soon", ghfake.Fault{Status: 200, Message: "API rate limit already exceeded for installation ID 1.", Reset: 20}, 21 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake, _ := setup(t)
			openPR(fake)
			c, ft := limitedClient(t, fake, ghapi.Limits{})
			fake.Inject("graphql", tt.fault)
			snap, err := c.Snapshot(t.Context(), 7, "main", configPath)
			require.NoError(t, err)
			assert.Equal(t, 7, snap.Facts.PR.Number)
			assert.Equal(t, []time.Duration{tt.wait}, ft.sleeps)
			require.Len(t, ft.logs, 1)
			assert.Contains(t, ft.logs[0], "API rate limit already exceeded")
		})
	}
}

func TestGraphQLRateLimitedNotWaitedOutFails(t *testing.T) {
	fake, _ := setup(t)
	openPR(fake)
	c, ft := limitedClient(t, fake, ghapi.Limits{})
	fake.Inject("graphql", ghfake.Fault{Status: 200, Message: "API rate limit already exceeded for installation ID 1.", Reset: 3600})
	_, err := c.Snapshot(t.Context(), 7, "main", configPath)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "API rate limit already exceeded")
	assert.Empty(t, ft.sleeps)
	assert.Contains(t, ft.logs[0], "not waiting 1h0m1s")
}

// With the secondary limits enforced, the 81st content-creating request of a minute is
// refused with retry-after, waited out, and made.
func TestSecondaryLimitsOfTheFakeAreWaitedOut(t *testing.T) {
	fake, _ := setup(t)
	head := openPR(fake)
	c, ft := limitedClient(t, fake, ghapi.Limits{})
	fake.EnforceSecondaryLimits()
	for i := range 80 {
		o := c.Perform(t.Context(), model.Effect{Key: "c", Kind: model.EffectComment, Number: 7, Body: "comment"})
		require.Empty(t, o.Err, "comment %d", i+1)
	}
	assert.Empty(t, ft.sleeps)
	assert.Equal(t, model.Outcome{Key: "k"}, c.Perform(t.Context(), mergeEffect(head)))
	assert.True(t, fake.PR(repoName, 7).Merged)
	assert.Equal(t, []time.Duration{time.Minute}, ft.sleeps, "until the minute of the first 80 is over")
}
