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

// TestSnapshotIssueReadsPullRequestsOfOtherRepositories reads an issue, a pull request of its
// repository and pull requests of two other repositories in one GraphQL request (each
// repository under an alias), which the fake validates against GitHub's schema.
func TestSnapshotIssueReadsPullRequestsOfOtherRepositories(t *testing.T) {
	ctx := t.Context()
	fake, c := setupAtClockWithConfig(t, noPipelines)
	fake.AddRepo("acme/web", "main")
	fake.AddRepo("acme/docs", "trunk")
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 4, Author: "alice", Title: "Cross-repo"})
	fake.OpenPR(repoName, ghfake.PROptions{Number: 9, Author: "dev", Head: "feat-4", Labels: []string{"ok"}})
	fake.OpenPR("acme/web", ghfake.PROptions{Number: 9, Author: "dev", Head: "feat/issue-4", Labels: []string{"web"}})
	fake.OpenPR("acme/web", ghfake.PROptions{Number: 30, Author: "dev", Head: "feat/issue-4b"})
	fake.OpenPR("acme/docs", ghfake.PROptions{Number: 2, Author: "dev", Head: "feat/issue-4"})
	fake.Review("acme/web", 9, "carol", "approved", "")
	fake.ResetStats()

	others := []model.PRRef{{Repo: "acme/web", Number: 30}, {Repo: "Acme/Web", Number: 9}, {Repo: "acme/docs", Number: 2},
		{Repo: repoName, Number: 9}, {Repo: "acme/web", Number: 9}}
	s, err := c.SnapshotIssueWith(ctx, 4, []int{9}, others, "main", configPath, lang.DefaultStateBranch)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats(), "one query for the issue and every pull request")
	assertDocumented(t, fake)
	require.NotNil(t, s.Facts.Issue)
	require.Len(t, s.Facts.PRs, 1)
	assert.Equal(t, []string{"ok"}, s.Facts.PRs[9].Labels, "#9 of the subject's repository")
	require.Len(t, s.Facts.Others, 3)
	web9 := s.Facts.Others["acme/web#9"]
	require.NotNil(t, web9)
	assert.Equal(t, []string{"web"}, web9.Labels, "#9 of acme/web is not #9 of acme/widgets")
	assert.Equal(t, fake.PR("acme/web", 9).HeadSHA, web9.HeadSHA)
	assert.Equal(t, "acme/web", web9.HeadRepo)
	assert.False(t, web9.CrossRepo)
	require.Len(t, web9.Reviews, 1)
	assert.Equal(t, "carol", web9.Reviews[0].Author)
	assert.Equal(t, 30, s.Facts.Others["acme/web#30"].Number)
	assert.Equal(t, "trunk", s.Facts.Others["acme/docs#2"].BaseRef)

	// A number that is not a pull request of the other repository fails as GitHub fails it.
	_, err = c.SnapshotIssueWith(ctx, 4, nil, []model.PRRef{{Repo: "acme/web", Number: 31}}, "main", configPath, lang.DefaultStateBranch)
	require.ErrorContains(t, err, "Could not resolve to a PullRequest with the number of 31.")
}

// TestOtherRepositoryNeedsATokenThatReachesIt: a token scoped to its own repository (as
// GITHUB_TOKEN is) cannot read or merge another repository's pull request — GitHub answers
// the repository as missing; a token that reaches both (an App installation's) can.
func TestOtherRepositoryNeedsATokenThatReachesIt(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, noPipelines)
	fake.AddRepo("acme/web", "main")
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 4, Author: "alice"})
	fake.OpenPR("acme/web", ghfake.PROptions{Number: 30, Author: "dev", Head: "feat/issue-4"})
	sha := fake.PR("acme/web", 30).HeadSHA
	merge := model.Effect{Key: "xr/4/1/merge-web/1/merge_pr", Kind: model.EffectMerge, Number: 30, Repo: "acme/web", SHA: sha, Method: "squash"}

	fake.Scope(ghfake.BotLogin, repoName)
	_, err := c.SnapshotIssueWith(ctx, 4, nil, []model.PRRef{{Repo: "acme/web", Number: 30}}, "main", configPath, lang.DefaultStateBranch)
	require.ErrorContains(t, err, "Could not resolve to a Repository with the name 'acme/web'.")
	out := c.Perform(ctx, merge)
	assert.Contains(t, out.Err, "acme/web#30")
	assert.Contains(t, out.Err, "404")
	assert.False(t, fake.PR("acme/web", 30).Merged)

	fake.Scope(ghfake.BotLogin, repoName, "acme/web")
	s, err := c.SnapshotIssueWith(ctx, 4, nil, []model.PRRef{{Repo: "acme/web", Number: 30}}, "main", configPath, lang.DefaultStateBranch)
	require.NoError(t, err)
	require.NotNil(t, s.Facts.Others["acme/web#30"])
	out = c.Perform(ctx, merge)
	assert.Empty(t, out.Err)
	assert.True(t, fake.PR("acme/web", 30).Merged)
	assert.Equal(t, "squash", fake.PR("acme/web", 30).MergeMethod)
	assertDocumented(t, fake)

	// Only a merge goes to another repository.
	out = c.Perform(ctx, model.Effect{Key: "k", Kind: model.EffectAddLabel, Number: 30, Repo: "acme/web", Labels: []string{"x"}})
	assert.Contains(t, out.Err, `not supported yet: effect "add_label" in another repository (acme/web)`)
	assert.True(t, out.Permanent)
}

func TestInTakesOnlyRepositoryNames(t *testing.T) {
	_, c := setup(t)
	o, err := c.In("acme/web")
	require.NoError(t, err)
	assert.Equal(t, "acme", o.Owner)
	assert.Equal(t, "web", o.Repo)
	assert.Equal(t, "widgets", c.Repo, "the client itself is unchanged")
	for _, bad := range []string{"", "acme", "acme/", "/web", "acme/web/x", "../..", "acme/..", "acme/web?x=1", "acme/we b", "acme/web#3"} {
		_, err := c.In(bad)
		assert.Error(t, err, "%q", bad)
	}
}

// TestReadPRsWithReadsBothRepositoriesInOneQuery: the pull requests an issue's state names
// that the snapshot did not read — of its repository and of others — in one query.
func TestReadPRsWithReadsBothRepositoriesInOneQuery(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.AddRepo("acme/web", "main")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 9, Author: "dev", Head: "feat-4", Labels: []string{"own"}})
	fake.OpenPR("acme/web", ghfake.PROptions{Number: 9, Author: "dev", Head: "feat-4", Labels: []string{"web"}})
	fake.ResetStats()
	own, others, err := c.ReadPRsWith(ctx, []int{9}, []model.PRRef{{Repo: "acme/web", Number: 9}})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
	assertDocumented(t, fake)
	assert.Equal(t, []string{"own"}, own[9].Labels)
	assert.Equal(t, []string{"web"}, others["acme/web#9"].Labels)

	// Only other repositories' (no alias of its own repository in the query).
	fake.ResetStats()
	own, others, err = c.ReadPRsWith(ctx, nil, []model.PRRef{{Repo: "acme/web", Number: 9}})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
	assert.Empty(t, own)
	assert.Len(t, others, 1)

	// Only its own: as ReadPRs.
	own, others, err = c.ReadPRsWith(ctx, []int{9}, nil)
	require.NoError(t, err)
	assert.Len(t, own, 1)
	assert.Empty(t, others)
}
