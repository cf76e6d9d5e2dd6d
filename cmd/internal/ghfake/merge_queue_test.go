package ghfake

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

const enqueueDoc = `mutation($id: ID!, $head: GitObjectID) {
  enqueuePullRequest(input: {pullRequestId: $id, expectedHeadOid: $head}) { mergeQueueEntry { position state } }
}`

const queuedDoc = `query($n: Int!) { repository(owner: "acme", name: "widgets") {
  pullRequest(number: $n) { isInMergeQueue mergeQueueEntry { position state headCommit { oid } baseCommit { oid } } } } }`

// queueWorld is widgets whose main requires the merge queue and the check test, with #8
// opened beside #7.
func queueWorld(t *testing.T) (*Server, *github.Client) {
	t.Helper()
	s, c := widgetsAsBot(t)
	s.SetProtection(testRepo, "main", world.Protection{MergeQueue: true, RequiredChecks: []string{"test"}})
	s.OpenPR(testRepo, PROptions{Number: 8, Author: "dev", Head: "feat/docs", Title: "Docs", Files: []string{"docs/a.md"}})
	return s, c
}

func queueID(s *Server, n int) string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return world.NodeID("PullRequest", s.Repos[testRepo].Issues[n].ID)
}

// An enqueued pull request gets an entry and a merge group on the base; the queue merges the
// group at its front when its required checks pass, and takes out one whose check failed;
// the merge API refuses a base that requires the queue.
func TestMergeQueue(t *testing.T) {
	s, c := queueWorld(t)
	_, _, err := c.PullRequests.Merge(t.Context(), "acme", "widgets", 7, "", nil)
	require.Error(t, err)
	assert.Equal(t, http.StatusMethodNotAllowed, err.(*github.ErrorResponse).Response.StatusCode)

	out := gql(t, s, s.BotToken(), enqueueDoc, map[string]any{"id": queueID(s, 7), "head": s.PR(testRepo, 7).HeadSHA})
	assert.Equal(t, 1.0, dig(t, out, "data", "enqueuePullRequest", "mergeQueueEntry", "position"))
	gql(t, s, s.BotToken(), enqueueDoc, map[string]any{"id": queueID(s, 8)})
	out = gql(t, s, s.BotToken(), queuedDoc, map[string]any{"n": 8})
	assert.Equal(t, true, dig(t, out, "data", "repository", "pullRequest", "isInMergeQueue"))
	entry := dig(t, out, "data", "repository", "pullRequest", "mergeQueueEntry")
	assert.Equal(t, 2.0, dig(t, entry, "position"))
	assert.Equal(t, "AWAITING_CHECKS", dig(t, entry, "state"))
	group7 := dig(t, gql(t, s, s.BotToken(), queuedDoc, map[string]any{"n": 7}), "data", "repository", "pullRequest", "mergeQueueEntry", "headCommit", "oid")
	assert.Equal(t, group7, dig(t, entry, "baseCommit", "oid"), "#8's group is built on #7's")
	assert.Contains(t, s.Branches(testRepo), "gh-readonly-queue/main/pr-7-"+s.PR(testRepo, 7).HeadSHA)

	s.CompleteGroupCheck(testRepo, 7, "ci", "test", "failure")
	assert.False(t, s.PR(testRepo, 7).Merged)
	out = gql(t, s, s.BotToken(), queuedDoc, map[string]any{"n": 7})
	assert.Equal(t, false, dig(t, out, "data", "repository", "pullRequest", "isInMergeQueue"), "a failed group leaves the queue")
	out = gql(t, s, s.BotToken(), queuedDoc, map[string]any{"n": 8})
	assert.Equal(t, 1.0, dig(t, out, "data", "repository", "pullRequest", "mergeQueueEntry", "position"), "the groups behind are built again")

	group8 := dig(t, out, "data", "repository", "pullRequest", "mergeQueueEntry", "headCommit", "oid")
	s.CompleteGroupCheck(testRepo, 8, "ci", "test", "success")
	pr := s.PR(testRepo, 8)
	assert.True(t, pr.Merged)
	assert.Equal(t, world.BotLogin, pr.MergedBy, "merged for who enqueued it")
	assert.NotContains(t, s.Branches(testRepo), "gh-readonly-queue/main/pr-8-"+pr.HeadSHA)
	main, _, err := c.Repositories.GetBranch(t.Context(), "acme", "widgets", "main", 0)
	require.NoError(t, err)
	assert.Equal(t, group8, main.GetCommit().GetSHA(), "the base moved to the group's head")
	assert.Equal(t, "Merge pull request #8 from acme/feat/docs\n\nDocs", pr.MergeCommit)
}

// What GitHub refuses to enqueue, a push taking a pull request out, dequeuePullRequest, and
// a queue with no required checks merging at once.
func TestMergeQueueRefusalsAndLeaving(t *testing.T) {
	s, _ := queueWorld(t)
	out := gql(t, s, s.BotToken(), enqueueDoc, map[string]any{"id": queueID(s, 7), "head": "0000000000000000000000000000000000000000"})
	assert.Contains(t, dig(t, out, "errors", 0, "message"), "expected head sha")
	out = gql(t, s, s.Token("mallory"), enqueueDoc, map[string]any{"id": queueID(s, 7)})
	assert.NotEmpty(t, dig(t, out, "errors"), "a reader may not enqueue")

	gql(t, s, s.BotToken(), enqueueDoc, map[string]any{"id": queueID(s, 7)})
	out = gql(t, s, s.BotToken(), enqueueDoc, map[string]any{"id": queueID(s, 7)})
	assert.Contains(t, dig(t, out, "errors", 0, "message"), "already in the merge queue")
	s.Push(testRepo, 7)
	out = gql(t, s, s.BotToken(), queuedDoc, map[string]any{"n": 7})
	assert.Equal(t, false, dig(t, out, "data", "repository", "pullRequest", "isInMergeQueue"), "a push takes it out")

	gql(t, s, s.BotToken(), enqueueDoc, map[string]any{"id": queueID(s, 8)})
	out = gql(t, s, s.BotToken(), `mutation($id: ID!) { dequeuePullRequest(input: {id: $id}) { mergeQueueEntry { position } } }`, map[string]any{"id": queueID(s, 8)})
	assert.Nil(t, dig(t, out, "errors"))
	assert.False(t, s.PR(testRepo, 8).Merged)

	s.SetProtection(testRepo, "main", world.Protection{MergeQueue: true})
	gql(t, s, s.BotToken(), enqueueDoc, map[string]any{"id": queueID(s, 8)})
	assert.True(t, s.PR(testRepo, 8).Merged, "no required check: the queue merges at once")
}
