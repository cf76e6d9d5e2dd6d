package ghapi_test

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnapshotIssue reads an issue with its labels, timeline and comments, the state branch
// and two associated pull requests under aliases, in one GraphQL request that the fake
// validates against GitHub's schema.
func TestSnapshotIssueWithItsPullRequests(t *testing.T) {
	ctx := t.Context()
	fake, c := setupAtClockWithConfig(t, noPipelines)
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 4, Author: "alice", Title: "Add a widget"})
	fake.Label(repoName, 4, "feature", true)
	fake.Comment(repoName, 4, "bob", "me too")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 9, Author: "dev", Head: "feat-4", Labels: []string{"ok"}})
	fake.OpenPR(repoName, ghfake.PROptions{Number: 10, Author: "dev", Head: "feat-4b"})
	fake.Review(repoName, 9, "carol", "approved", "")
	fake.ResetStats()

	s, err := c.SnapshotIssue(ctx, 4, []int{10, 9, 9}, "main", configPath, lang.DefaultStateBranch)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
	assertDocumented(t, fake)
	require.Nil(t, s.Facts.PR)
	is := s.Facts.Issue
	require.NotNil(t, is)
	assert.Equal(t, 4, is.Number)
	assert.Equal(t, "Add a widget", is.Title)
	assert.Equal(t, model.IssueOpen, is.State)
	assert.Equal(t, "alice", is.Author)
	assert.Equal(t, []string{"feature"}, is.Labels)
	require.Len(t, is.Timeline, 1)
	assert.Equal(t, model.TimelineLabeled, is.Timeline[0].Kind)
	require.Len(t, is.Comments, 1)
	assert.Equal(t, "me too", is.Comments[0].Body)
	require.Len(t, s.Comments, 1)
	assert.Nil(t, s.State.File, "no state branch yet")
	require.Len(t, s.Facts.PRs, 2)
	pr := s.Facts.PRs[9]
	assert.Equal(t, 9, pr.Number)
	assert.Equal(t, fake.PR(repoName, 9).HeadSHA, pr.HeadSHA)
	assert.Equal(t, []string{"ok"}, pr.Labels)
	require.Len(t, pr.Reviews, 1)
	assert.Equal(t, "carol", pr.Reviews[0].Author)
	assert.Equal(t, "acme/widgets", pr.HeadRepo)
	assert.Equal(t, 10, s.Facts.PRs[10].Number)

	// The pull requests alone, as the state of the issue names them.
	fake.ResetStats()
	prs, err := c.ReadPRs(ctx, []int{9})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
	require.Len(t, prs, 1)
	assert.Equal(t, []string{"ok"}, prs[9].Labels)

	// A number that is an issue, not a pull request, fails the query as GitHub fails it.
	_, err = c.SnapshotIssue(ctx, 4, []int{4}, "main", configPath, lang.DefaultStateBranch)
	require.ErrorContains(t, err, "Could not resolve to a PullRequest with the number of 4.")
}

// An issue with more than 100 labels, timeline events and comments is read in full: the
// newest comments (where commands are) and the oldest label events count as on a PR.
func TestSnapshotIssueReadsPastTheFirstPage(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, noPipelines)
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 4, Author: "alice"})
	for i := 0; i < 105; i++ {
		fake.Label(repoName, 4, fmt.Sprintf("area-%03d", i), true)
	}
	for i := 0; i < 250; i++ {
		fake.Comment(repoName, 4, "bob", fmt.Sprintf("comment %d", i))
	}
	fake.ResetStats()
	s, err := c.SnapshotIssue(ctx, 4, nil, "main", configPath, lang.DefaultStateBranch)
	require.NoError(t, err)
	is := s.Facts.Issue
	assert.Len(t, is.Labels, 105)
	require.Len(t, is.Timeline, 105)
	assert.Equal(t, "area-000", is.Timeline[0].Label, "the oldest event comes first")
	require.Len(t, is.Comments, 250, "every comment, each once")
	for i, cm := range is.Comments {
		require.Equal(t, fmt.Sprintf("comment %d", i), cm.Body, "oldest first")
	}
	assert.Len(t, s.Comments, 250)
	assert.Empty(t, s.Warnings)
	// One query, one more page of labels, of timeline events, and of the comments between.
	assert.Equal(t, map[string]int{"graphql": 4}, fake.Stats())
}

// Past the pages one event reads, the comments between the oldest and the newest are not
// read, and the run is told so; the newest are read all the same.
func TestSnapshotIssueSaysWhichCommentsItDidNotRead(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, noPipelines)
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 4, Author: "alice"})
	for i := 0; i < 1300; i++ {
		fake.Comment(repoName, 4, "bob", fmt.Sprintf("comment %d", i))
	}
	s, err := c.SnapshotIssue(ctx, 4, nil, "main", configPath, lang.DefaultStateBranch)
	require.NoError(t, err)
	require.Len(t, s.Warnings, 1)
	assert.Contains(t, s.Warnings[0], "#4 has more comments than the oldest 1100 and the newest 100")
	cs := s.Facts.Issue.Comments
	require.Len(t, cs, 1200)
	assert.Equal(t, "comment 1299", cs[len(cs)-1].Body, "the newest comment is read")
}
