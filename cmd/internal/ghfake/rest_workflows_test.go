package ghfake

import (
	"errors"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMergeOfAWorkflowChangeIsRefusedToTheActionsToken(t *testing.T) {
	s := widgets(t)
	s.OpenPR(testRepo, PROptions{Number: 9, Author: "dev", Head: "ci/bump", Files: []string{"src/a.go", ".github/workflows/test.yml"}})
	gh := client(t, s, s.BotToken())
	_, resp, err := gh.PullRequests.Merge(t.Context(), "acme", "widgets", 9, "", &github.PullRequestOptions{MergeMethod: "squash"})
	var er *github.ErrorResponse
	require.True(t, errors.As(err, &er))
	assert.Equal(t, 403, resp.StatusCode)
	assert.Equal(t, "refusing to allow a GitHub App to create or update workflow `.github/workflows/test.yml` without `workflows` permission", er.Message)
	assert.False(t, s.PR(testRepo, 9).Merged)

	// A pull request that changes no workflow merges.
	_, _, err = gh.PullRequests.Merge(t.Context(), "acme", "widgets", 7, "", &github.PullRequestOptions{MergeMethod: "squash"})
	require.NoError(t, err)
}
