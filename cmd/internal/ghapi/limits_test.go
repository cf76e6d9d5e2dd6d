package ghapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeTime is a clock that only sleeping moves, and the record of the sleeps.
type fakeTime struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	logs   []string
}

func (f *fakeTime) limits(l ghapi.Limits) ghapi.Limits {
	l.Now = func() time.Time {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.now
	}
	l.Sleep = func(ctx context.Context, d time.Duration) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.sleeps = append(f.sleeps, d)
		f.now = f.now.Add(d)
		return ctx.Err()
	}
	l.Logf = func(format string, args ...any) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.logs = append(f.logs, fmt.Sprintf(format, args...))
	}
	return l
}

// limitedClient is a client of fake whose clock is the fake's and whose waits are recorded.
func limitedClient(t *testing.T, fake *ghfake.Server, l ghapi.Limits) (*ghapi.Client, *fakeTime) {
	t.Helper()
	ft := &fakeTime{now: clock}
	fake.SetClock(func() time.Time {
		ft.mu.Lock()
		defer ft.mu.Unlock()
		return ft.now
	})
	c, err := ghapi.New(ghapi.Options{Token: fake.BotToken(), RESTURL: fake.URL + "/api/v3",
		GraphQLURL: fake.URL + "/api/graphql", Repository: repoName, Limits: ft.limits(l)})
	require.NoError(t, err)
	return c, ft
}

// limitedOnPR is setup with #7 open, its head, and a limitedClient of the fake with l.
func limitedOnPR(t *testing.T, l ghapi.Limits) (*ghfake.Server, string, *ghapi.Client, *fakeTime) {
	t.Helper()
	fake, _ := setup(t)
	head := openPR(fake)
	c, ft := limitedClient(t, fake, l)
	return fake, head, c, ft
}

func mergeEffect(head string) model.Effect {
	return model.Effect{Key: "k", Kind: model.EffectMerge, Number: 7, SHA: head, Method: "merge"}
}

// TestStalledServerTimesOut talks to a server that accepts connections and never answers:
// the request fails after the request timeout, saying so, instead of holding the job.
func TestStalledServerTimesOut(t *testing.T) {
	url := runtest.StalledServer(t)
	c, err := ghapi.New(ghapi.Options{Token: "t", RESTURL: url + "/api/v3", GraphQLURL: url + "/api/graphql",
		Repository: repoName, Limits: ghapi.Limits{RequestTimeout: 200 * time.Millisecond}})
	require.NoError(t, err)

	start := time.Now()
	_, err = c.Snapshot(t.Context(), 7, "main", configPath)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	var te *ghapi.TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Contains(t, err.Error(), url+"/api/graphql")
	assert.Contains(t, err.Error(), "GitHub did not answer within 200ms")

	start = time.Now()
	o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: model.EffectAddLabel, Number: 7, Labels: []string{"x"}})
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, "adding labels: GitHub did not answer within 200ms", o.Err)
	assert.False(t, o.Permanent, "the next event tries again")
}

// TestStalledBodyTimesOut: headers arrive, the body never ends.
func TestStalledBodyTimesOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"data": {`))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	c, err := ghapi.New(ghapi.Options{Token: "t", RESTURL: srv.URL + "/api/v3", GraphQLURL: srv.URL + "/api/graphql",
		Repository: repoName, Limits: ghapi.Limits{RequestTimeout: 200 * time.Millisecond}})
	require.NoError(t, err)
	start := time.Now()
	_, err = c.Snapshot(t.Context(), 7, "main", configPath)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Contains(t, err.Error(), "within 200ms")
}

// TestFakeTimeoutFault: the fake holds a request with a timeout fault until the client gives up,
// then serves the next one.
func TestFakeTimeoutFault(t *testing.T) {
	fake, head, c, _ := limitedOnPR(t, ghapi.Limits{RequestTimeout: 200 * time.Millisecond})
	fake.Inject("pulls/merge", ghfake.Fault{Timeout: true})
	start := time.Now()
	o := c.Perform(t.Context(), mergeEffect(head))
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, "merge: GitHub did not answer within 200ms", o.Err)
	assert.False(t, o.Permanent)
	assert.False(t, fake.PR(repoName, 7).Merged)
	assert.Equal(t, model.Outcome{Key: "k"}, c.Perform(t.Context(), mergeEffect(head)))
	assert.True(t, fake.PR(repoName, 7).Merged)
}

func TestSecondaryRateLimitIsRetried(t *testing.T) {
	for _, tt := range []struct {
		name  string
		fault ghfake.Fault
		wait  time.Duration
	}{
		{"403 with retry-after", ghfake.Fault{Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 2}, 2 * time.Second},
		{"429 with retry-after", ghfake.Fault{Status: 429, Message: "Too Many Requests", RetryAfter: 5}, 5 * time.Second},
		{"403 saying so, without headers: a minute", ghfake.Fault{Status: 403, Message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}, time.Minute},
		{"primary limit spent, reset soon", ghfake.Fault{Status: 403, Message: "API rate limit exceeded for installation ID 1.", Reset: 20}, 21 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake, head, c, ft := limitedOnPR(t, ghapi.Limits{})
			fake.Inject("pulls/merge", tt.fault)
			fake.ResetStats()
			assert.Equal(t, model.Outcome{Key: "k"}, c.Perform(t.Context(), mergeEffect(head)))
			assert.True(t, fake.PR(repoName, 7).Merged)
			assert.Equal(t, []time.Duration{tt.wait}, ft.sleeps)
			assert.Equal(t, 2, fake.Stats()["pulls/merge"], "one retry")
			assert.Equal(t, map[string]int{"rest": 2}, c.Calls(), "every attempt counts against the budget")
			require.Len(t, ft.logs, 1)
			assert.Contains(t, ft.logs[0], "retrying in")
		})
	}
}

func TestGraphQLSecondaryRateLimitIsRetried(t *testing.T) {
	fake, _, c, ft := limitedOnPR(t, ghapi.Limits{})
	fake.Inject("graphql", ghfake.Fault{Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 3})
	snap, err := c.Snapshot(t.Context(), 7, "main", configPath)
	require.NoError(t, err)
	assert.Equal(t, 7, snap.Facts.PR.Number)
	assert.Equal(t, []time.Duration{3 * time.Second}, ft.sleeps)
}

func TestRateLimitsNotWaitedOut(t *testing.T) {
	secondary := ghfake.Fault{Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 2}
	for _, tt := range []struct {
		name   string
		faults []ghfake.Fault
		limits ghapi.Limits
		sleeps []time.Duration
		log    string
	}{
		{"the primary limit resets in an hour: fail fast", []ghfake.Fault{{Status: 403, Message: "API rate limit exceeded for installation ID 1.", Reset: 3600}},
			ghapi.Limits{}, nil, "not waiting 1h0m1s for it (at most 1m0s)"},
		{"a wait longer than allowed", []ghfake.Fault{{Status: 429, Message: "slow down", RetryAfter: 120}},
			ghapi.Limits{}, nil, "not waiting 2m0s for it (at most 1m0s)"},
		{"a wait past the deadline", []ghfake.Fault{secondary},
			ghapi.Limits{Deadline: clock.Add(time.Second)}, nil, "waiting 2s would pass the deadline of this run"},
		{"retries run out, waiting longer each time", []ghfake.Fault{secondary, secondary, secondary, secondary},
			ghapi.Limits{}, []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}, "given up after 4 attempts"},
		{"no retries", []ghfake.Fault{secondary}, ghapi.Limits{Retries: -1}, nil, "given up after 1 attempt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake, head, c, ft := limitedOnPR(t, tt.limits)
			for _, f := range tt.faults {
				fake.Inject("pulls/merge", f)
			}
			o := c.Perform(t.Context(), mergeEffect(head))
			assert.NotEmpty(t, o.Err)
			assert.False(t, o.Permanent, "a rate limit passes: the next event tries again")
			assert.False(t, fake.PR(repoName, 7).Merged)
			assert.Equal(t, tt.sleeps, ft.sleeps)
			require.NotEmpty(t, ft.logs)
			assert.Contains(t, ft.logs[len(ft.logs)-1], tt.log)
		})
	}
}

// A 403 that is no rate limit (the token may not do it) is not retried, and is permanent.
func TestForbiddenIsNotARateLimit(t *testing.T) {
	fake, head, c, ft := limitedOnPR(t, ghapi.Limits{})
	fake.Inject("pulls/merge", ghfake.Fault{Status: 403, Message: "Resource not accessible by integration"})
	o := c.Perform(t.Context(), mergeEffect(head))
	assert.Equal(t, "merge refused (403): Resource not accessible by integration", o.Err)
	assert.True(t, o.Permanent)
	assert.Empty(t, ft.sleeps)
}

// The invocation's context ends a wait at once.
func TestRateLimitWaitEndsWithTheContext(t *testing.T) {
	fake, _ := setup(t)
	head := openPR(fake)
	c, err := ghapi.New(ghapi.Options{Token: fake.BotToken(), RESTURL: fake.URL + "/api/v3",
		GraphQLURL: fake.URL + "/api/graphql", Repository: repoName})
	require.NoError(t, err)
	fake.Inject("pulls/merge", ghfake.Fault{Status: 429, Message: "slow down", RetryAfter: 30})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	o := c.Perform(ctx, mergeEffect(head))
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.NotEmpty(t, o.Err)
	assert.True(t, errors.Is(ctx.Err(), context.DeadlineExceeded))
}

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
			fake, _, c, ft := limitedOnPR(t, ghapi.Limits{})
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
	fake, _, c, ft := limitedOnPR(t, ghapi.Limits{})
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
	fake, head, c, ft := limitedOnPR(t, ghapi.Limits{})
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

// An effect a rate limit refused says when the limit ends, for the stage to wait for it:
// the primary limit's reset, or a secondary limit's retry-after; a refusal that is no
// rate limit says nothing.
func TestRateLimitRefusalSaysWhenItEnds(t *testing.T) {
	for name, tt := range map[string]struct {
		spend bool // the fake's counted primary limit, spent
		fault *ghfake.Fault
		want  time.Time
	}{
		"the primary limit spent":     {spend: true, want: clock.Add(time.Hour)},
		"a primary limit's fault":     {fault: &ghfake.Fault{Status: 403, Message: "API rate limit exceeded for installation ID 1.", Reset: 1800}, want: clock.Add(30 * time.Minute)},
		"a secondary limit":           {fault: &ghfake.Fault{Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 600}, want: clock.Add(10 * time.Minute)},
		"a refusal that is no limit":  {fault: &ghfake.Fault{Status: 403, Message: "Resource not accessible by integration"}},
		"a server error, not a limit": {fault: &ghfake.Fault{Status: 502, Message: "Bad Gateway"}},
	} {
		t.Run(name, func(t *testing.T) {
			fake, head, c, _ := limitedOnPR(t, ghapi.Limits{})
			if tt.spend {
				fake.EnforcePrimaryLimits(ghfake.TokenGitHub)
				fake.SpendPrimary(ghfake.BotLogin, "core", 1000) // GITHUB_TOKEN's hour
			}
			if tt.fault != nil {
				fake.Inject("pulls/merge", *tt.fault)
			}
			o := c.Perform(t.Context(), mergeEffect(head))
			assert.NotEmpty(t, o.Err)
			assert.Equal(t, tt.want.Unix(), o.RetryAt.Unix(), "%s", o.RetryAt)
			assert.Equal(t, tt.want.IsZero(), o.RetryAt.IsZero())
			if tt.spend {
				assert.Equal(t, "merge refused (403): API rate limit exceeded for installation ID 1.", o.Err)
			}
		})
	}
}
