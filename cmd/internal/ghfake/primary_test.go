package ghfake

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/gqlexec"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/ratelimit"
)

// GITHUB_TOKEN's 1,000 REST requests an hour: every answer says where the token stands,
// the 1,001st is refused as GitHub refuses it (go-github reads a RateLimitError), and the
// hour after the first request a new window opens.
func TestPrimaryLimitCountsGitHubTokensRESTRequests(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	now := testClock
	s.SetClock(func() time.Time { return now })
	s.EnforcePrimaryLimits(TokenGitHub)
	c := client(t, s, s.BotToken())
	_, resp, err := c.PullRequests.Get(ctx, "acme", "widgets", 7)
	require.NoError(t, err)
	assert.Equal(t, "1000", resp.Header.Get("X-RateLimit-Limit"))
	assert.Equal(t, "999", resp.Header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, "1", resp.Header.Get("X-RateLimit-Used"))
	assert.Equal(t, strconv.FormatInt(testClock.Add(time.Hour).Unix(), 10), resp.Header.Get("X-RateLimit-Reset"))
	assert.Equal(t, "core", resp.Header.Get("X-RateLimit-Resource"))
	s.SpendPrimary(BotLogin, ratelimit.Core, 999)
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("the thousandth"))
	require.NoError(t, err)
	_, resp, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("one too many"))
	var rl *github.RateLimitError
	require.True(t, errors.As(err, &rl), "%v", err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, "0", resp.Header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, testClock.Add(time.Hour).Unix(), rl.Rate.Reset.Unix())
	comments, _, err := client(t, s, s.Token("dev")).Issues.ListComments(ctx, "acme", "widgets", 7, nil)
	require.NoError(t, err, "another identity has its own 5,000")
	assert.Len(t, comments, 1, "the refused comment was not made")
	now = testClock.Add(time.Hour)
	_, resp, err = c.PullRequests.Get(ctx, "acme", "widgets", 7)
	require.NoError(t, err, "the next hour")
	assert.Equal(t, "999", resp.Header.Get("X-RateLimit-Remaining"))
}

// An app's installation token has 5,000 REST requests and 5,000 GraphQL points an hour.
func TestPrimaryLimitOfAnAppToken(t *testing.T) {
	s := widgets(t)
	s.EnforcePrimaryLimits(TokenApp)
	_, resp, err := client(t, s, s.BotToken()).PullRequests.Get(t.Context(), "acme", "widgets", 7)
	require.NoError(t, err)
	assert.Equal(t, "5000", resp.Header.Get("X-RateLimit-Limit"))
	s.SpendPrimary(BotLogin, ratelimit.GraphQL, 4999)
	assert.Nil(t, gql(t, s, s.BotToken(), `query{viewer{login}}`, nil)["errors"], "the 5,000th point")
	out := gql(t, s, s.BotToken(), `query{viewer{login}}`, nil)
	assert.Nil(t, out["data"])
	assert.Equal(t, []any{map[string]any{"type": "RATE_LIMITED", "code": "graphql_rate_limit", "message": ratelimit.Message}}, out["errors"])
}

// GraphQL points by GitHub's formula: the requests each connection needs, every
// connection above it full, over 100, rounded, at least 1.
func TestGraphQLCostByGitHubsFormula(t *testing.T) {
	sch, _, err := newT(t).graphQLSchema()
	require.NoError(t, err)
	cost := func(q string, vars map[string]any) int {
		op, v, errs := gqlexec.Prepare(sch, q, "", vars)
		require.Empty(t, errs)
		return ratelimit.Cost(op, v)
	}
	assert.Equal(t, 1, cost(`query{viewer{login}}`, nil), "no connection: the minimum")
	// 1 (pullRequests) + 100 (their labels) + 100 (their reviews) + 100×100 (the comments of
	// each of the 10,000 reviews) = 10,201
	assert.Equal(t, 102, cost(`query($n:Int!){repository(owner:"acme",name:"widgets"){
		pullRequests(first:$n){nodes{labels(first:100){nodes{name}} reviews(last:100){nodes{comments(first:50){nodes{body}}}}}}}}`,
		map[string]any{"n": 100}))
	// 1 + 10 + 10 = 21 requests: 0.21, rounded to 0, the minimum 1.
	assert.Equal(t, 1, cost(`query{repository(owner:"acme",name:"widgets"){pullRequests(first:10){nodes{labels(first:5){nodes{name}} comments(last:5){nodes{body}}}}}}`, nil))
	assert.Equal(t, 2, cost(`query{repository(owner:"acme",name:"widgets"){pullRequests(first:100){nodes{labels(first:5){nodes{name}} commits(last:1){nodes{url}}}}}}`, nil), "201 requests")
}
