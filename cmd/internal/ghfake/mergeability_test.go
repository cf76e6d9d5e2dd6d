package ghfake

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mergeStateQuery = `query { repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { mergeable mergeStateStatus } } }`

func mergeState(t *testing.T, s *Server) (string, string) {
	t.Helper()
	out := gql(t, s, s.BotToken(), mergeStateQuery, nil)
	pr := dig(t, out, "data", "repository", "pullRequest")
	return dig(t, pr, "mergeable").(string), dig(t, pr, "mergeStateStatus").(string)
}

func TestMergeabilityIsComputedLate(t *testing.T) {
	s := widgets(t)
	s.SetUnknownReads(testRepo, 2)
	for i := 0; i < 2; i++ {
		m, st := mergeState(t, s)
		assert.Equal(t, "UNKNOWN", m, "read %d", i+1)
		assert.Equal(t, "UNKNOWN", st, "read %d: one request, one answer", i+1)
	}
	m, st := mergeState(t, s)
	assert.Equal(t, "MERGEABLE", m)
	assert.Equal(t, "CLEAN", st)
	// A merge while GitHub computes is refused; the computation restarts on a push.
	s.Push(testRepo, 7)
	got, _, err := client(t, s, s.BotToken()).PullRequests.Get(t.Context(), "acme", "widgets", 7)
	require.NoError(t, err)
	assert.Equal(t, "unknown", got.GetMergeableState(), "REST looks without counting a read")
	assert.Nil(t, got.Mergeable)
	_, _, err = client(t, s, s.BotToken()).PullRequests.Merge(t.Context(), "acme", "widgets", 7, "", nil)
	requireStatus(t, err, http.StatusMethodNotAllowed, "Pull Request is not mergeable")
	m, _ = mergeState(t, s)
	assert.Equal(t, "UNKNOWN", m, "the second read after the push")
	m, _ = mergeState(t, s)
	assert.Equal(t, "MERGEABLE", m)
}

func requireStatus(t *testing.T, err error, code int, msg string) {
	t.Helper()
	var er *github.ErrorResponse
	require.ErrorAs(t, err, &er)
	assert.Equal(t, code, er.Response.StatusCode)
	assert.Equal(t, msg, er.Message)
}

func TestProtectionRefusesTheMerge(t *testing.T) {
	ctx := t.Context()
	tests := []struct {
		name  string
		p     Protection
		opts  *github.PullRequestOptions
		state string
		msg   string
	}{
		{"reviews", Protection{RequiredReviews: 1}, nil, "BLOCKED", "At least 1 approving review is required by reviewers with write access."},
		{"checks", Protection{RequiredChecks: []string{"test"}}, nil, "BLOCKED", `Required status check "test" is expected.`},
		{"merge commits", Protection{MergeMethods: []string{"squash"}}, nil, "CLEAN", "Merge commits are not allowed on this repository."},
		{"squash", Protection{MergeMethods: []string{"merge"}}, &github.PullRequestOptions{MergeMethod: "squash"}, "CLEAN", "Squash merges are not allowed on this repository."},
		{"merge queue", Protection{MergeQueue: true}, nil, "CLEAN", "Changes must be made through the merge queue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := widgets(t)
			s.SetProtection(testRepo, "main", tt.p)
			_, st := mergeState(t, s)
			assert.Equal(t, tt.state, st)
			_, _, err := client(t, s, s.BotToken()).PullRequests.Merge(ctx, "acme", "widgets", 7, "", tt.opts)
			requireStatus(t, err, http.StatusMethodNotAllowed, tt.msg)
		})
	}
	t.Run("met", func(t *testing.T) {
		s := widgets(t)
		s.SetProtection(testRepo, "main", Protection{RequiredReviews: 1, RequiredChecks: []string{"test"}})
		s.Review(testRepo, 7, "alice", "approved", "")
		s.CompleteCheck(testRepo, 7, "test", "success", "")
		_, st := mergeState(t, s)
		assert.Equal(t, "CLEAN", st)
		_, _, err := client(t, s, s.BotToken()).PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
		require.NoError(t, err)
	})
}

func TestStrictProtectionAndUpdateBranch(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	s.SetProtection(testRepo, "main", Protection{Strict: true})
	c := client(t, s, s.BotToken())
	_, _, err := c.PullRequests.UpdateBranch(ctx, "acme", "widgets", 7, nil)
	requireStatus(t, err, http.StatusUnprocessableEntity, "There are no new commits on the base branch.")
	s.SetFile(testRepo, "main", "NEWS.md", "news")
	_, st := mergeState(t, s)
	assert.Equal(t, "BEHIND", st)
	got, _, err := c.PullRequests.Get(ctx, "acme", "widgets", 7)
	require.NoError(t, err)
	assert.Equal(t, "behind", got.GetMergeableState(), "REST says it in lower case")
	_, _, err = c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	requireStatus(t, err, http.StatusMethodNotAllowed, "Head branch is not up to date with the base branch")
	_, _, err = c.PullRequests.UpdateBranch(ctx, "acme", "widgets", 7, nil)
	var accepted *github.AcceptedError
	require.ErrorAs(t, err, &accepted, "GitHub answers 202")
	_, st = mergeState(t, s)
	assert.Equal(t, "CLEAN", st)
	_, _, err = c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	require.NoError(t, err)
}
