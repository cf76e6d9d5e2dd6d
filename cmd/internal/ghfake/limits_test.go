package ghfake

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/faults"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBlobTextIsCutAtGitHubsLimit(t *testing.T) {
	s := widgets(t)
	big := strings.Repeat("é", world.MaxBlobText/2) + "tail" // one byte over, in the middle of a character
	s.SetFile(testRepo, "main", "big.txt", big)
	s.SetFile(testRepo, "main", "small.txt", "small\n")
	out := gql(t, s, s.BotToken(), `query{repository(owner:"acme",name:"widgets"){
		big: object(expression:"main:big.txt"){... on Blob{text isTruncated byteSize}}
		small: object(expression:"main:small.txt"){... on Blob{text isTruncated}}}}`, nil)
	require.Nil(t, out["errors"])
	repo := dig(t, out["data"], "repository")
	text := dig(t, repo, "big", "text").(string)
	assert.Equal(t, true, dig(t, repo, "big", "isTruncated"))
	assert.LessOrEqual(t, len(text), world.MaxBlobText)
	assert.Equal(t, world.MaxBlobText, len(text), "é is two bytes: the cut falls between two")
	assert.True(t, strings.HasPrefix(big, text))
	assert.EqualValues(t, len(big), dig(t, repo, "big", "byteSize"), "byteSize is the whole blob's")
	assert.Equal(t, "small\n", dig(t, repo, "small", "text"))
	assert.Equal(t, false, dig(t, repo, "small", "isTruncated"))

	odd := "a" + strings.Repeat("é", world.MaxBlobText/2) // the limit falls inside a character
	text, cut := world.BlobText(&world.Blob{Text: odd})
	assert.True(t, cut)
	assert.Equal(t, world.MaxBlobText-1, len(text))
}

func TestALabelNameOver50CharactersIsRefused(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	long := strings.Repeat("l", rest.MaxLabelName+1)
	ok := strings.Repeat("l", rest.MaxLabelName)
	_, resp, err := c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{"fine", long})
	var ge *github.ErrorResponse
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Equal(t, "Validation Failed", ge.Message)
	require.Len(t, ge.Errors, 1)
	assert.Equal(t, github.Error{Resource: "Label", Field: "name", Code: "invalid"}, ge.Errors[0])
	assert.Equal(t, []string{"security"}, s.PR(testRepo, 7).Labels, "nothing was added")

	_, resp, err = c.Issues.ReplaceLabelsForIssue(ctx, "acme", "widgets", 7, []string{long})
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	_, resp, err = c.Issues.Create(ctx, "acme", "widgets", &github.IssueRequest{Title: github.String("t"), Labels: &[]string{long}})
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	_, resp, err = c.Issues.Edit(ctx, "acme", "widgets", 7, &github.IssueRequest{Labels: &[]string{long}})
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)

	_, _, err = c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{ok})
	require.NoError(t, err, "50 characters are accepted")
}

func TestWorkflowDispatchInputsOverGitHubsLimitsAreRefused(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	s.SetFile(testRepo, "main", ".github/workflows/agent.yml", agentWorkflow)
	c := client(t, s, s.BotToken())
	dispatch := func(inputs map[string]any) (int, string) {
		resp, err := c.Actions.CreateWorkflowDispatchEventByFileName(ctx, "acme", "widgets", "agent.yml",
			github.CreateWorkflowDispatchEventRequest{Ref: "main", Inputs: inputs})
		msg := ""
		if er, ok := err.(*github.ErrorResponse); ok {
			msg = er.Message
		}
		return resp.StatusCode, msg
	}
	code, msg := dispatch(map[string]any{"run": "r", "stage": "s", "attempt": "1", "subject": "x",
		"context": strings.Repeat("c", rest.MaxDispatchPayload)})
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Contains(t, msg, "inputs are too large")

	code, _ = dispatch(map[string]any{"run": "r", "stage": "s", "attempt": "1", "subject": "x",
		"context": strings.Repeat("c", rest.MaxDispatchPayload-200)})
	assert.Equal(t, http.StatusNoContent, code)

	many := map[string]any{}
	for i := range rest.MaxDispatchInputs + 1 {
		many[strings.Repeat("i", i+1)] = "v"
	}
	code, msg = dispatch(many)
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Contains(t, msg, "Too many inputs (maximum is 25)")
}

func TestSecondaryLimitsRefuseTheEighty1stWriteOfAMinute(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	for range faults.PerMinute {
		_, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("x"))
		require.NoError(t, err, "not enforced yet")
	}
	s.EnforceSecondaryLimits()
	for i := range faults.PerMinute {
		_, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("x"))
		require.NoError(t, err, "comment %d", i+1)
		_, _, err = c.PullRequests.Get(ctx, "acme", "widgets", 7)
		require.NoError(t, err, "reads are not content-creating")
	}
	_, resp, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("x"))
	require.Error(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, "60", resp.Header.Get("Retry-After"))
	assert.Contains(t, err.Error(), "secondary rate limit")
	out := gql(t, s, s.BotToken(), `query{viewer{login}}`, nil)
	assert.Nil(t, out["errors"], "a query is not content-creating")
}

func TestSecondaryWait(t *testing.T) {
	now := testClock
	at := func(ago time.Duration, n int) []time.Time {
		out := make([]time.Time, n)
		for i := range out {
			out[i] = now.Add(-ago)
		}
		return out
	}
	assert.Zero(t, faults.SecondaryWait(at(time.Second, 79), now))
	assert.Equal(t, 59*time.Second, faults.SecondaryWait(at(time.Second, 80), now))
	assert.Zero(t, faults.SecondaryWait(at(time.Minute, 80), now), "a minute later the minute's 80 are over")
	assert.Equal(t, 30*time.Minute, faults.SecondaryWait(at(30*time.Minute, 500), now))
}

func TestGraphQLRateLimitedFaultAnswersAsGitHub(t *testing.T) {
	s := widgets(t)
	s.Inject("graphql", Fault{Status: http.StatusOK, Message: "API rate limit already exceeded for installation ID 1."})
	out := gql(t, s, s.BotToken(), `query{viewer{login}}`, nil)
	assert.Nil(t, out["data"])
	assert.Equal(t, []any{map[string]any{"type": "RATE_LIMITED", "code": "graphql_rate_limit",
		"message": "API rate limit already exceeded for installation ID 1."}}, out["errors"])
}
