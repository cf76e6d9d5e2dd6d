package ghfake

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// GitHub's PATCH git/refs moves a branch only forward unless force is sent: a commit that
// does not descend from the branch's head is refused with 422 "Update is not a fast
// forward", and the branch stays where it was.
func TestUpdateRefFastForwardOnly(t *testing.T) {
	s, main := stateWorld(t)
	ctx := t.Context()
	c := client(t, s, s.BotToken())
	update := func(sha string, force bool) (*http.Response, error) {
		_, resp, err := c.Git.UpdateRef(ctx, "acme", "widgets", &github.Reference{
			Ref: github.String("refs/heads/" + stateBranch), Object: &github.GitObject{SHA: github.String(sha)}}, force)
		if resp == nil {
			return nil, err
		}
		return resp.Response, err
	}
	first, err := s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "alice", Files: map[string]string{"a.json": "1"}})
	require.NoError(t, err)
	second, err := s.PushCommit(testRepo, stateBranch, GitPush{Pusher: "alice", Files: map[string]string{"a.json": "2"}})
	require.NoError(t, err)

	// Back to an ancestor, or to a commit of another line (main's head is an ancestor too,
	// but a branch of its own): neither is a fast-forward.
	for _, sha := range []string{first, main} {
		resp, err := update(sha, false)
		require.Error(t, err, sha)
		assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
		var ge *github.ErrorResponse
		require.ErrorAs(t, err, &ge)
		assert.Equal(t, "Update is not a fast forward", ge.Message)
		assert.Equal(t, "https://docs.github.com/rest/git/refs#update-a-reference", ge.DocumentationURL)
		assert.Equal(t, second, headOf(s, stateBranch))
	}
	other, err := s.PushCommit(testRepo, "other", GitPush{Pusher: "alice", Files: map[string]string{"b.json": "1"}})
	require.NoError(t, err)
	resp, err := update(other, false)
	require.Error(t, err, "a commit on another line")
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)

	// The same head, and a descendant, are fast-forwards; force moves it anywhere.
	_, err = update(second, false)
	require.NoError(t, err)
	resp, err = update(first, true)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, first, headOf(s, stateBranch))
	_, err = update(second, false)
	require.NoError(t, err, "forward again")
	assert.Equal(t, second, headOf(s, stateBranch))
}
