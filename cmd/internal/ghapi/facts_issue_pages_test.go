package ghapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
)

// An issue with more than 100 labels, timeline events and comments is read in full: the
// newest comments (where commands are) and the oldest label events count as on a PR.
func TestSnapshotIssueReadsPastTheFirstPage(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
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
	fake, c := setup(t)
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
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
