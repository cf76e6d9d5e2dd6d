package ghfake

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	prIDQuery  = `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { id } } }`
	addComment = `mutation($id: ID!) { addComment(input: {subjectId: $id, body: "posted"}) { commentEdge { node { body } } } }`
)

// A performed fault serves the request, then loses its answer: the comment is posted, and
// the client is told 502.
func TestFaultPerformedREST(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	s.Inject("issues/create-comment", Fault{Status: 502, Message: "Bad Gateway", Performed: true})
	_, resp, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("posted"))
	require.Error(t, err)
	assert.Equal(t, 502, resp.StatusCode)
	comments := s.Comments(testRepo, 7)
	require.Len(t, comments, 1, "the request was served")
	assert.Equal(t, "posted", comments[0].Body)
	calls := s.Calls()
	assert.Equal(t, 502, calls[len(calls)-1].Status, "the call is recorded with the status the client saw")
}

// A performed GraphQL fault runs the mutation and answers GitHub's error types in a 200
// with null data; the call is still recorded as a mutation.
func TestFaultPerformedGraphQLErrors(t *testing.T) {
	s := widgets(t)
	prID := dig(t, gql(t, s, s.BotToken(), prIDQuery, nil), "data", "repository", "pullRequest", "id")
	s.Inject("graphql", Fault{Errors: []string{"SERVICE_UNAVAILABLE"}, Performed: true})
	out := gql(t, s, s.BotToken(), addComment, map[string]any{"id": prID})
	assert.Nil(t, out["data"])
	assert.Equal(t, "SERVICE_UNAVAILABLE", dig(t, out, "errors", 0, "type"))
	assert.NotEmpty(t, dig(t, out, "errors", 0, "message"))
	require.Len(t, s.Comments(testRepo, 7), 1, "the mutation was performed")
	calls := s.Calls()
	assert.True(t, calls[len(calls)-1].Mutation)
}

// Without Performed, a GraphQL error fault refuses the mutation: nothing is posted.
func TestFaultGraphQLErrorsNotPerformed(t *testing.T) {
	s := widgets(t)
	prID := dig(t, gql(t, s, s.BotToken(), prIDQuery, nil), "data", "repository", "pullRequest", "id")
	s.Inject("graphql", Fault{Errors: []string{"FORBIDDEN"}, Message: "Resource not accessible by integration"})
	out := gql(t, s, s.BotToken(), addComment, map[string]any{"id": prID})
	assert.Nil(t, out["data"])
	assert.Equal(t, "FORBIDDEN", dig(t, out, "errors", 0, "type"))
	assert.Equal(t, "Resource not accessible by integration", dig(t, out, "errors", 0, "message"))
	assert.Empty(t, s.Comments(testRepo, 7))
}

// A partial fault answers the served data with the errors added.
func TestFaultPartial(t *testing.T) {
	s := widgets(t)
	s.Inject("graphql", Fault{Errors: []string{"NOT_FOUND"}, Partial: true, Field: "repository"})
	out := gql(t, s, s.BotToken(), prIDQuery, nil)
	assert.NotEmpty(t, dig(t, out, "data", "repository", "pullRequest", "id"))
	assert.Equal(t, "NOT_FOUND", dig(t, out, "errors", 0, "type"))
	assert.Equal(t, []any{"repository"}, dig(t, out, "errors", 0, "path"))
}

// A fault for one field meets only requests that select it: the query passes it by, the
// mutation meets it.
func TestFaultField(t *testing.T) {
	s := widgets(t)
	s.Inject("graphql", Fault{Errors: []string{"RATE_LIMITED"}, Field: "addComment"})
	out := gql(t, s, s.BotToken(), prIDQuery, nil)
	require.Nil(t, out["errors"], "a query that does not select addComment is served")
	out = gql(t, s, s.BotToken(), addComment, map[string]any{"id": dig(t, out, "data", "repository", "pullRequest", "id")})
	assert.Equal(t, "RATE_LIMITED", dig(t, out, "errors", 0, "type"))
	assert.Empty(t, s.Comments(testRepo, 7))
}

// Count fails that many calls; Until fails every call until the clock passes it; DropFaults
// removes what is left of a tagged fault.
func TestFaultCountUntilDrop(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	now := testClock
	setNow := func(t time.Time) { // through SetClock, which the fake's lock orders with its reads
		now = t
		s.SetClock(func() time.Time { return t })
	}
	c := client(t, s, s.BotToken())
	create := func() int {
		_, resp, _ := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("x"))
		return resp.StatusCode
	}
	s.Inject("issues/create-comment", Fault{Status: 503, Count: 2})
	assert.Equal(t, []int{503, 503, 201}, []int{create(), create(), create()})

	s.Inject("issues/create-comment", Fault{Status: 502, Until: now.Add(10 * time.Minute)})
	assert.Equal(t, []int{502, 502}, []int{create(), create()})
	setNow(now.Add(10 * time.Minute))
	assert.Equal(t, 502, create(), "until the clock passes it")
	setNow(now.Add(time.Second))
	assert.Equal(t, 201, create())

	s.Inject("issues/create-comment", Fault{Status: 500, Count: 3, Tag: "step 4"})
	assert.Equal(t, 500, create())
	assert.Equal(t, 1, s.DropFaults("step 4"))
	assert.Equal(t, 0, s.DropFaults("step 4"))
	assert.Equal(t, 201, create())
}

// A performed timeout serves the request and then holds the answer until the client
// gives up.
func TestFaultPerformedTimeout(t *testing.T) {
	s, c := widgetsAsBot(t)
	s.Inject("issues/create-comment", Fault{Timeout: true, Performed: true})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("posted"))
	require.Error(t, err)
	require.Len(t, s.Comments(testRepo, 7), 1)
}

// A fault with Skip lets that many calls through, served, before it answers one; then the
// calls after it are served again.
func TestInjectSkip(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	s.Inject("issues/create-comment", Fault{Status: 502, Message: "Bad Gateway", Skip: 2})
	for i := range 2 {
		_, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("served"))
		require.NoError(t, err, "call %d is let through", i+1)
	}
	_, resp, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("refused"))
	require.Error(t, err)
	assert.Equal(t, 502, resp.StatusCode)
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("served again"))
	require.NoError(t, err)
	var bodies []string
	for _, cm := range s.Comments(testRepo, 7) {
		bodies = append(bodies, cm.Body)
	}
	assert.Equal(t, []string{"served", "served", "served again"}, bodies)
}
