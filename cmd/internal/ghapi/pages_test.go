package ghapi_test

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// A PR with more than 100 reviews, checks or labels is read in full: what lies past the
// first page (an old changes request, the one failing check) still counts. Comments are
// read from both ends.
func TestSnapshotReadsPastTheFirstPage(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, versionOnly)
	fake.AddUser("alice", "write")
	fake.AddUser("bob", "write")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/login"})

	fake.Review(repoName, 7, "bob", "changes_requested", "no")
	for i := 0; i < 120; i++ {
		fake.Review(repoName, 7, "alice", "commented", fmt.Sprintf("thought %d", i))
	}
	for i := 0; i < 110; i++ {
		fake.SetStatus(repoName, 7, fmt.Sprintf("ci/job-%03d", i), "success")
	}
	fake.SetStatus(repoName, 7, "ci/security", "failure")
	for i := 0; i < 105; i++ {
		fake.Label(repoName, 7, fmt.Sprintf("area-%03d", i), true)
	}
	for i := 0; i < 130; i++ {
		fake.Comment(repoName, 7, "alice", "ping")
	}
	_, err := c.CreateComment(ctx, 7, "status <!-- pipeline-action:state v1 x -->")
	require.NoError(t, err)

	fake.ResetStats()
	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	pr := snap.Facts.PR
	require.Len(t, pr.Reviews, 121)
	assert.Equal(t, "bob", pr.Reviews[0].Author, "the oldest review comes first")
	assert.Equal(t, model.ReviewChangesRequested, pr.Reviews[0].State)
	require.Len(t, pr.Checks, 111)
	assert.Equal(t, model.CheckResult{Name: "ci/security", Kind: "status", State: model.CheckFailure, Conclusion: "FAILURE"}, pr.Checks[110])
	assert.Len(t, pr.Labels, 105)
	require.Len(t, pr.Timeline, 105, "every labeled event, past the newest 100")
	assert.Equal(t, "area-000", pr.Timeline[0].Label, "the oldest event comes first")
	require.Len(t, snap.Comments, 131, "the oldest and the newest 100 comments")
	assert.True(t, snap.Comments[130].ViewerDidAuthor)
	assert.False(t, snap.CommentGap())
	// One query, plus one more page of reviews, checks, labels and timeline events.
	assert.Equal(t, map[string]int{"graphql": 5}, fake.Stats())
	assertDocumented(t, fake)
}

// GitHub links a pull request to more than ten issues when its body names them: every one
// is read, past the first ten the facts query asks for.
func TestSnapshotReadsEveryClosingReference(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, versionOnly)
	body := ""
	for i := 1; i <= 12; i++ {
		fake.OpenIssue(repoName, ghfake.IssueOptions{Number: i, Author: "dev"})
		body += fmt.Sprintf("Fixes #%d\n", i)
	}
	fake.OpenPR(repoName, ghfake.PROptions{Number: 20, Author: "dev", Body: body})
	fake.ResetStats()
	snap, err := c.Snapshot(ctx, 20, "main", configPath)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, snap.Facts.PR.LinkedIssues)
	assert.Empty(t, snap.Facts.PR.LinkedFrom, "GitHub's links")
	assert.Equal(t, map[string]int{"graphql": 2}, fake.Stats())
}
