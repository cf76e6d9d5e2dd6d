package ghfake

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScopedTokenSeesOnlyItsRepositories: an identity restricted to its own repository (as
// a workflow's GITHUB_TOKEN is) finds another repository missing, over REST and GraphQL, as
// GitHub answers; lifting the restriction (an App installation token on both) reaches it.
func TestScopedTokenSeesOnlyItsRepositories(t *testing.T) {
	s := widgets(t)
	s.AddRepo("acme/web", "main")
	s.OpenPR("acme/web", PROptions{Number: 30, Author: "dev", Head: "feat/x"})
	tok := s.BotToken()
	q := `query($o: String!, $n: String!) { a: repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { number } }
		b: repository(owner: $o, name: $n) { pullRequest(number: 30) { number headRefName } } }`
	vars := map[string]any{"o": "acme", "n": "web"}

	out := gql(t, s, tok, q, vars)
	assert.Equal(t, float64(30), dig(t, out, "data", "b", "pullRequest", "number"))

	s.Scope(BotLogin, testRepo)
	out = gql(t, s, tok, q, vars)
	assert.Equal(t, float64(7), dig(t, out, "data", "a", "pullRequest", "number"), "its own repository is read")
	assert.Nil(t, dig(t, out, "data", "b"))
	errs, _ := out["errors"].([]any)
	require.Len(t, errs, 1)
	assert.Equal(t, "Could not resolve to a Repository with the name 'acme/web'.", dig(t, errs[0], "message"))
	_, resp, err := client(t, s, tok).PullRequests.Get(t.Context(), "acme", "web", 30)
	require.Error(t, err)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	_, _, err = client(t, s, tok).PullRequests.Get(t.Context(), "acme", "widgets", 7)
	require.NoError(t, err)

	s.Scope(BotLogin, testRepo, "Acme/Web")
	_, _, err = client(t, s, tok).PullRequests.Get(t.Context(), "acme", "web", 30)
	require.NoError(t, err, "repository names compare without regard to case")
	s.Scope(BotLogin)
	out = gql(t, s, tok, q, vars)
	assert.Nil(t, out["errors"])
}
