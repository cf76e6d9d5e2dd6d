package ghfake

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forkWorld is world with a develop branch in acme/widgets and PR #8 from someone's fork, whose
// head branch is also named develop.
func forkWorld(t *testing.T) (*Server, Event) {
	t.Helper()
	s := widgets(t)
	s.AddBranch(testRepo, "develop")
	ev := s.OpenPR(testRepo, PROptions{Number: 8, Author: "someone", Head: "develop", Fork: "someone",
		Files: []string{"README.md"}})
	return s, ev
}

func TestForkPR(t *testing.T) {
	s, ev := forkWorld(t)
	baseDevelop := s.refHead(t, testRepo, "develop")
	pr := s.PR(testRepo, 8)
	assert.Equal(t, "someone/widgets", pr.HeadRepo)
	assert.Equal(t, testRepo, s.PR(testRepo, 7).HeadRepo)
	assert.Equal(t, []string{"develop", "feat/login", "main"}, s.Branches(testRepo), "the fork's branch is not the base's")
	assert.Equal(t, []string{"develop", "main"}, s.Branches("someone/widgets"))
	assert.Equal(t, pr.HeadSHA, s.refHead(t, "someone/widgets", "develop"))
	assert.NotEqual(t, pr.HeadSHA, baseDevelop)

	// The webhook names the fork as the head's repository, as GitHub's does.
	var p map[string]any
	require.NoError(t, json.Unmarshal(ev.Payload, &p))
	assert.Equal(t, "someone/widgets", dig(t, p, "pull_request", "head", "repo", "full_name"))
	assert.Equal(t, true, dig(t, p, "pull_request", "head", "repo", "fork"))
	assert.Equal(t, "someone:develop", dig(t, p, "pull_request", "head", "label"))
	assert.Equal(t, "someone", dig(t, p, "pull_request", "head", "user", "login"))
	assert.Equal(t, testRepo, dig(t, p, "pull_request", "base", "repo", "full_name"))
	assert.Equal(t, false, dig(t, p, "pull_request", "base", "repo", "fork"))
	assert.Equal(t, testRepo, dig(t, p, "repository", "full_name"))

	// A push moves the fork's branch, never the base's branch of the same name.
	s.Push(testRepo, 8)
	assert.Equal(t, s.PR(testRepo, 8).HeadSHA, s.refHead(t, "someone/widgets", "develop"))
	assert.Equal(t, baseDevelop, s.refHead(t, testRepo, "develop"))

	// GraphQL says where the head lives.
	out := gql(t, s, s.BotToken(), `query($owner: String!, $name: String!) {
	  repository(owner: $owner, name: $name) {
	    fork: pullRequest(number: 8) { isCrossRepository headRefName headRepository { nameWithOwner } headRepositoryOwner { login } headRef { name target { oid } } }
	    own: pullRequest(number: 7) { isCrossRepository headRepository { nameWithOwner } }
	  }
	}`, map[string]any{"owner": "acme", "name": "widgets"})
	require.Nil(t, out["errors"])
	fork := dig(t, out, "data", "repository", "fork")
	assert.Equal(t, true, dig(t, fork, "isCrossRepository"))
	assert.Equal(t, "someone/widgets", dig(t, fork, "headRepository", "nameWithOwner"))
	assert.Equal(t, "someone", dig(t, fork, "headRepositoryOwner", "login"))
	assert.Equal(t, s.PR(testRepo, 8).HeadSHA, dig(t, fork, "headRef", "target", "oid"))
	own := dig(t, out, "data", "repository", "own")
	assert.Equal(t, false, dig(t, own, "isCrossRepository"))
	assert.Equal(t, testRepo, dig(t, own, "headRepository", "nameWithOwner"))

	// REST: the fork is a fork of acme/widgets.
	c := client(t, s, s.BotToken())
	r, _, err := c.Repositories.Get(t.Context(), "someone", "widgets")
	require.NoError(t, err)
	assert.True(t, r.GetFork())
	assert.Equal(t, testRepo, r.GetParent().GetFullName())
	assert.Equal(t, testRepo, r.GetSource().GetFullName())
	got, _, err := c.PullRequests.Get(t.Context(), "acme", "widgets", 8)
	require.NoError(t, err)
	assert.Equal(t, "someone/widgets", got.GetHead().GetRepo().GetFullName())

	// The merge takes the fork's files.
	_, _, err = c.PullRequests.Merge(t.Context(), "acme", "widgets", 8, "", nil)
	require.NoError(t, err)
	assert.True(t, s.PR(testRepo, 8).Merged)
}

// TestForkChecks: GitHub lists no pull request in check suites and workflow runs of a head
// branch in a fork, and a check suite's head_branch is null then.
func TestForkChecks(t *testing.T) {
	s, _ := forkWorld(t)
	var p map[string]any
	require.NoError(t, json.Unmarshal(s.CompleteCheck(testRepo, 8, "test", "success", "").Payload, &p))
	assert.Equal(t, []any{}, dig(t, p, "workflow_run", "pull_requests"))
	assert.Equal(t, "someone/widgets", dig(t, p, "workflow_run", "head_repository", "full_name"))
	assert.Equal(t, testRepo, dig(t, p, "workflow_run", "repository", "full_name"))
	assert.Equal(t, s.PR(testRepo, 8).HeadSHA, dig(t, p, "workflow_run", "head_sha"))

	p = nil
	require.NoError(t, json.Unmarshal(s.CompleteCheck(testRepo, 8, "lint", "success", "octo-lint").Payload, &p))
	assert.Equal(t, []any{}, dig(t, p, "check_suite", "pull_requests"))
	assert.Nil(t, dig(t, p, "check_suite", "head_branch"))

	// The head commit is only in the fork: the base repository associates it with no pull
	// request (GraphQL and REST).
	sha := s.PR(testRepo, 8).HeadSHA
	assoc := func(owner string) []any {
		out := gql(t, s, s.BotToken(), `query($owner: String!, $sha: GitObjectID!) { repository(owner: $owner, name: "widgets") {
		  object(oid: $sha) { ... on Commit { associatedPullRequests(first: 10) { nodes { number } } } } } }`,
			map[string]any{"owner": owner, "sha": sha})
		require.Nil(t, out["errors"])
		return dig(t, out, "data", "repository", "object", "associatedPullRequests", "nodes").([]any)
	}
	assert.Empty(t, assoc("acme"))
	c := client(t, s, s.BotToken())
	pulls, _, err := c.PullRequests.ListPullRequestsWithCommit(t.Context(), "acme", "widgets", sha, nil)
	require.NoError(t, err)
	assert.Empty(t, pulls)
	// A same-repository PR's head is associated as before.
	own, _, err := c.PullRequests.ListPullRequestsWithCommit(t.Context(), "acme", "widgets", s.PR(testRepo, 7).HeadSHA, nil)
	require.NoError(t, err)
	require.Len(t, own, 1)
	assert.Equal(t, 7, own[0].GetNumber())

	// The open pull requests by head branch find it, naming the fork and the head commit.
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") {
	  pullRequests(states: OPEN, headRefName: "develop", first: 10) { nodes { number headRefOid headRepository { nameWithOwner } } } } }`, nil)
	require.Nil(t, out["errors"])
	nodes := dig(t, out, "data", "repository", "pullRequests", "nodes").([]any)
	require.Len(t, nodes, 1)
	assert.EqualValues(t, 8, dig(t, nodes[0], "number"))
	assert.Equal(t, sha, dig(t, nodes[0], "headRefOid"))
	assert.Equal(t, "someone/widgets", dig(t, nodes[0], "headRepository", "nameWithOwner"))

	// Once merged, the commit is the base's too, and so is the association.
	_, _, err = c.PullRequests.Merge(t.Context(), "acme", "widgets", 8, "", nil)
	require.NoError(t, err)
	require.Len(t, assoc("acme"), 1)
	assert.EqualValues(t, 8, dig(t, assoc("acme")[0], "number"))
}

// TestRepositoryPullRequests: the list filters by state and branches, and orders as asked.
func TestRepositoryPullRequests(t *testing.T) {
	s, _ := forkWorld(t)
	s.OpenPR(testRepo, PROptions{Number: 9, Author: "dev", Head: "develop"})
	s.ClosePR(testRepo, 7)
	q := func(args string) []any {
		out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { pullRequests(`+args+`) { nodes { number } } } }`, nil)
		require.Nil(t, out["errors"], "%v", out["errors"])
		var got []any
		for _, n := range dig(t, out, "data", "repository", "pullRequests", "nodes").([]any) {
			got = append(got, dig(t, n, "number"))
		}
		return got
	}
	assert.Equal(t, []any{7.0, 8.0, 9.0}, q("first: 10"))
	assert.Equal(t, []any{8.0, 9.0}, q("states: OPEN, first: 10"))
	assert.Equal(t, []any{7.0}, q("states: [CLOSED, MERGED], first: 10"))
	assert.Equal(t, []any{8.0, 9.0}, q(`headRefName: "develop", first: 10`))
	assert.Equal(t, []any{9.0, 8.0}, q(`headRefName: "develop", orderBy: {field: CREATED_AT, direction: DESC}, first: 10`))
	assert.Empty(t, q(`baseRefName: "develop", first: 10`))
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { pullRequests(first: 101) { nodes { number } } } }`, nil)
	assert.NotNil(t, out["errors"], "more than 100 a page is refused")
}

// TestDeleteRefDefaultBranch: GitHub refuses to delete the default branch with a 422 (the REST
// description's git/delete-ref responses), and a missing ref with "Reference does not exist".
func TestDeleteRefDefaultBranch(t *testing.T) {
	ctx := t.Context()
	s, _ := forkWorld(t)
	c := client(t, s, s.BotToken())
	resp, err := c.Git.DeleteRef(ctx, "acme", "widgets", "heads/main")
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Contains(t, err.Error(), "Cannot delete this branch")
	assert.Contains(t, s.Branches(testRepo), "main")

	resp, err = c.Git.DeleteRef(ctx, "acme", "widgets", "heads/nope")
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Contains(t, err.Error(), "Reference does not exist")

	// Deleting the base's develop leaves the fork PR's head alone.
	_, err = c.Git.DeleteRef(ctx, "acme", "widgets", "heads/develop")
	require.NoError(t, err)
	assert.False(t, s.PR(testRepo, 8).BranchDeleted)
	assert.Equal(t, []string{"develop", "main"}, s.Branches("someone/widgets"))
	// Deleting it in the fork is deleting the PR's head.
	_, err = c.Git.DeleteRef(ctx, "someone", "widgets", "heads/develop")
	require.NoError(t, err)
	assert.True(t, s.PR(testRepo, 8).BranchDeleted)
	assert.False(t, s.PR(testRepo, 7).BranchDeleted)
}

// TestForkPayloadShape holds the fork PR's opened event to the real delivery, as TestPayloadShapes
// does for same-repository PRs.
func TestForkPayloadShape(t *testing.T) {
	_, ev := forkWorld(t)
	var got, real map[string]any
	require.NoError(t, json.Unmarshal(ev.Payload, &got))
	b, err := os.ReadFile(githubDir + "webhooks/pull_request/opened.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &real))
	for _, side := range []string{"head", "base"} {
		for _, obj := range []string{"", "repo"} {
			path := []any{"pull_request", side}
			if obj != "" {
				path = append(path, obj)
			}
			for k := range dig(t, real, path...).(map[string]any) {
				assert.Contains(t, dig(t, got, path...), k, "%v.%s", path, k)
			}
		}
	}
}

// refHead is the head commit of branch in repo.
func (s *Server) refHead(t *testing.T, repoName, branch string) string {
	t.Helper()
	s.Mu.Lock()
	defer s.Mu.Unlock()
	b := s.MustRepo(repoName).Branches[branch]
	require.NotNil(t, b, "%s has no branch %s", repoName, branch)
	return b.Head
}
