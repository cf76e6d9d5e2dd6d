package ghfake

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fileOn reads path on branch of the test repository, "" when it is not there.
func fileOn(t *testing.T, s *Server, branch, path string) string {
	t.Helper()
	fc, _, resp, err := client(t, s, s.Token("alice")).Repositories.GetContents(t.Context(), "acme", "widgets", path,
		&github.RepositoryContentGetOptions{Ref: branch})
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return ""
	}
	require.NoError(t, err)
	text, err := fc.GetContent()
	require.NoError(t, err)
	return text
}

// TestUpdateBranchMerges: updating a pull request's branch is a merge of the base into it:
// a base change to a file the pull request never touched reaches the pull request, and
// merging the pull request keeps it on the base instead of undoing it. The pull request's
// own change stays.
func TestUpdateBranchMerges(t *testing.T) {
	for _, how := range []string{"button", "rest"} {
		t.Run(how, func(t *testing.T) {
			s := widgets(t)
			s.SetFile(testRepo, "feat/login", "src/auth/login.go", "pr's login\n")
			s.SetFile(testRepo, "main", "docs/guide.md", "base's guide\n")
			s.SetFile(testRepo, "main", ".github/pipelines.yaml", "version: 1 # changed on main\n")
			switch how {
			case "button":
				s.UpdateBranch(testRepo, 7, "alice")
			case "rest":
				_, _, err := client(t, s, s.Token("alice")).PullRequests.UpdateBranch(t.Context(), "acme", "widgets", 7, nil)
				var accepted *github.AcceptedError
				require.ErrorAs(t, err, &accepted)
			}
			assert.Equal(t, "base's guide\n", fileOn(t, s, "feat/login", "docs/guide.md"))
			assert.Equal(t, "version: 1 # changed on main\n", fileOn(t, s, "feat/login", ".github/pipelines.yaml"), "a base change to a file the pull request never touched")
			assert.Equal(t, "pr's login\n", fileOn(t, s, "feat/login", "src/auth/login.go"))
			assert.Equal(t, "alice", s.HeadUpdatedBy(testRepo, 7))

			_, _, err := client(t, s, s.Token("alice")).PullRequests.Merge(t.Context(), "acme", "widgets", 7, "", nil)
			require.NoError(t, err)
			assert.Equal(t, "version: 1 # changed on main\n", fileOn(t, s, "main", ".github/pipelines.yaml"), "merging the updated pull request keeps the base's change")
			assert.Equal(t, "pr's login\n", fileOn(t, s, "main", "src/auth/login.go"))
		})
	}
}

// TestUpdateBranchRefusals: GitHub refuses the Actions GITHUB_TOKEN the update of a fork's
// branch (403, the token reaches only its own repository) and an update that brings a base
// change under .github/workflows/ (403: it never has the `workflows` permission); a person
// with the rights may do both.
func TestUpdateBranchRefusals(t *testing.T) {
	ctx := t.Context()
	t.Run("fork", func(t *testing.T) {
		s, _ := forkWorld(t)
		s.SetFile(testRepo, "main", "docs/guide.md", "new\n")
		_, _, err := client(t, s, s.BotToken()).PullRequests.UpdateBranch(ctx, "acme", "widgets", 8, nil)
		var er *github.ErrorResponse
		require.ErrorAs(t, err, &er)
		assert.Equal(t, http.StatusForbidden, er.Response.StatusCode)
		assert.Equal(t, "Resource not accessible by integration", er.Message)
		assert.Equal(t, "", s.HeadUpdatedBy(testRepo, 8), "nothing was pushed")
	})
	t.Run("workflows", func(t *testing.T) {
		s := widgets(t)
		s.SetFile(testRepo, "main", ".github/workflows/ci.yml", "on: push\n")
		_, _, err := client(t, s, s.BotToken()).PullRequests.UpdateBranch(ctx, "acme", "widgets", 7, nil)
		var er *github.ErrorResponse
		require.ErrorAs(t, err, &er)
		assert.Equal(t, http.StatusForbidden, er.Response.StatusCode)
		assert.Equal(t, "refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission", er.Message)
		assert.Equal(t, "", s.HeadUpdatedBy(testRepo, 7))

		_, _, err = client(t, s, s.Token("alice")).PullRequests.UpdateBranch(ctx, "acme", "widgets", 7, nil)
		var accepted *github.AcceptedError
		require.ErrorAs(t, err, &accepted, "a person may")
		assert.Equal(t, "on: push\n", fileOn(t, s, "feat/login", ".github/workflows/ci.yml"))
	})
	t.Run("no workflow change", func(t *testing.T) {
		s := widgets(t)
		s.SetFile(testRepo, "feat/login", ".github/workflows/ci.yml", "on: push\n")
		s.SetFile(testRepo, "main", "docs/guide.md", "new\n")
		_, _, err := client(t, s, s.BotToken()).PullRequests.UpdateBranch(ctx, "acme", "widgets", 7, nil)
		var accepted *github.AcceptedError
		require.ErrorAs(t, err, &accepted, "a workflow the pull request itself changes is not brought by the update")
		assert.Equal(t, BotLogin, s.HeadUpdatedBy(testRepo, 7))
	})
}
