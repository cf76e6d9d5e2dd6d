package ghfake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareCountsAheadAndBehind(t *testing.T) {
	s := widgets(t)
	gh := client(t, s, s.BotToken())
	ctx := t.Context()
	head := s.PR(testRepo, 7).HeadSHA

	cmp, _, err := gh.Repositories.CompareCommits(ctx, "acme", "widgets", "main", head, nil)
	require.NoError(t, err)
	assert.Equal(t, "ahead", cmp.GetStatus())
	assert.Equal(t, 1, cmp.GetAheadBy())
	assert.Equal(t, 0, cmp.GetBehindBy())

	s.SetFile(testRepo, "main", "README.md", "new\n")
	s.SetFile(testRepo, "main", "README.md", "newer\n")
	cmp, _, err = gh.Repositories.CompareCommits(ctx, "acme", "widgets", "main", head, nil)
	require.NoError(t, err)
	assert.Equal(t, "diverged", cmp.GetStatus())
	assert.Equal(t, 2, cmp.GetBehindBy())
	assert.Equal(t, 1, cmp.GetAheadBy())
	require.Len(t, cmp.Commits, 1)
	assert.Equal(t, head, cmp.Commits[0].GetSHA())

	cmp, _, err = gh.Repositories.CompareCommits(ctx, "acme", "widgets", "main", "feat/login", nil)
	require.NoError(t, err)
	assert.Equal(t, 2, cmp.GetBehindBy(), "a branch names its head")

	// The JSON comparison carries the keys GitHub documents for it.
	req, err := gh.NewRequest("GET", "repos/acme/widgets/compare/main...feat/login", nil)
	require.NoError(t, err)
	var keys map[string]any
	_, err = gh.Do(ctx, req, &keys)
	require.NoError(t, err)
	for _, k := range []string{"url", "html_url", "permalink_url", "diff_url", "patch_url", "base_commit", "merge_base_commit",
		"status", "ahead_by", "behind_by", "total_commits", "commits", "files"} {
		assert.Contains(t, keys, k)
	}

	_, resp, err := gh.Repositories.CompareCommits(ctx, "acme", "widgets", "main", "nope", nil)
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
}
