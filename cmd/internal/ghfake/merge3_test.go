package ghfake

import (
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pull request cut before the base changed a file it does not touch merges without putting
// the old file back, by every method; a file both sides changed differently conflicts.
func TestMergeAppliesThePullRequestsChangesOnly(t *testing.T) {
	ctx := t.Context()
	for _, method := range []string{"merge", "squash", "rebase"} {
		t.Run(method, func(t *testing.T) {
			s := widgets(t)
			s.SetFile(testRepo, "main", ".github/pipelines.yaml", "version: 2\n")
			s.SetFile(testRepo, "main", "docs/new.md", "added on main\n")
			s.PushFiles(testRepo, 7, map[string]string{"README.md": "from the PR\n"})
			assert.Equal(t, "MERGEABLE", s.PR(testRepo, 7).Mergeable)

			res, resp, err := client(t, s, s.BotToken()).PullRequests.Merge(ctx, "acme", "widgets", 7, "",
				&github.PullRequestOptions{MergeMethod: method})
			require.NoError(t, err)
			assert.Equal(t, 200, resp.StatusCode)
			assert.True(t, res.GetMerged())
			files := s.BranchFiles(testRepo, "main")
			assert.Equal(t, "version: 2\n", files[".github/pipelines.yaml"], "the base's change survives")
			assert.Equal(t, "added on main\n", files["docs/new.md"])
			assert.Equal(t, "from the PR\n", files["README.md"], "the PR's change is applied")
			assert.Contains(t, files["src/auth/login.go"], "changed in #7")
		})
	}
}

func TestMergeOfConflictingChangesIsRefused(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	s.PushFiles(testRepo, 7, map[string]string{".github/pipelines.yaml": "version: 1\n# the PR's line\n"})
	s.SetFile(testRepo, "main", ".github/pipelines.yaml", "version: 2\n")
	assert.Equal(t, "CONFLICTING", s.PR(testRepo, 7).Mergeable)

	out := gql(t, s, s.BotToken(), `query{repository(owner:"acme",name:"widgets"){pullRequest(number:7){mergeable}}}`, nil)
	assert.Equal(t, "CONFLICTING", dig(t, out["data"], "repository", "pullRequest", "mergeable"))
	pr, _, err := client(t, s, s.BotToken()).PullRequests.Get(ctx, "acme", "widgets", 7)
	require.NoError(t, err)
	assert.False(t, pr.GetMergeable())
	assert.Equal(t, "dirty", pr.GetMergeableState())

	_, resp, err := client(t, s, s.BotToken()).PullRequests.Merge(ctx, "acme", "widgets", 7, "", &github.PullRequestOptions{})
	var ge *github.ErrorResponse
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, 405, resp.StatusCode)
	assert.Equal(t, "Pull Request is not mergeable", ge.Message)
	assert.Equal(t, "version: 2\n", s.BranchFiles(testRepo, "main")[".github/pipelines.yaml"])

	// Both sides making the same change is no conflict.
	s.PushFiles(testRepo, 7, map[string]string{".github/pipelines.yaml": "version: 2\n"})
	assert.Equal(t, "MERGEABLE", s.PR(testRepo, 7).Mergeable)
}
