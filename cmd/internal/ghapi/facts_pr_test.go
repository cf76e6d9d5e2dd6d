package ghapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestSnapshotHeadRepository reads where each PR's head branch lives: #7 in the repository,
// #8 in someone's fork, from a branch named like one of the repository's.
func TestSnapshotHeadRepository(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, versionOnly)
	fake.AddBranch(repoName, "develop")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/login"})
	fake.OpenPR(repoName, ghfake.PROptions{Number: 8, Author: "someone", Head: "develop", Fork: "someone"})

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	assert.False(t, snap.Facts.PR.CrossRepo)
	assert.Equal(t, repoName, snap.Facts.PR.HeadRepo)

	snap, err = c.Snapshot(ctx, 8, "main", configPath)
	require.NoError(t, err)
	assert.True(t, snap.Facts.PR.CrossRepo)
	assert.Equal(t, "someone/widgets", snap.Facts.PR.HeadRepo)
	assert.Equal(t, "develop", snap.Facts.PR.HeadRef)
	assertDocumented(t, fake)
}

// TestPerformMergeDeletesOnlyOwnBranch: an effect deletes heads/<name> only when it says the
// branch is this repository's; otherwise the merge goes ahead and no branch is touched.
func TestPerformMergeDeletesOnlyOwnBranch(t *testing.T) {
	tests := []struct {
		name     string
		headRepo string
		deleted  bool
	}{
		{"this repository's branch", repoName, true},
		{"this repository's, spelled in another case", "Acme/Widgets", true},
		{"a fork's branch", "someone/widgets", false},
		{"an effect that does not say where the branch lives", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			fake.AddBranch(repoName, "develop")
			fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "develop"})
			head := fake.PR(repoName, 7).HeadSHA
			fake.ResetStats()
			o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: model.EffectMerge, Number: 7,
				SHA: head, Method: "squash", Delete: true, HeadRef: "develop", HeadRepo: tt.headRepo})
			assert.Equal(t, model.Outcome{Key: "k"}, o)
			assert.True(t, fake.PR(repoName, 7).Merged)
			assert.Equal(t, tt.deleted, !slices.Contains(fake.Branches(repoName), "develop"))
			if tt.deleted {
				assert.Equal(t, map[string]int{"pulls/merge": 1, "git/delete-ref": 1}, fake.Stats())
			} else {
				assert.Equal(t, map[string]int{"pulls/merge": 1}, fake.Stats())
			}
			assertDocumented(t, fake)
		})
	}
}

// The action's own commit statuses (pipeline-action/<pipeline>) are read apart from the
// head's checks: no gate of the action, `ci_status` included, waits on them.
func TestOwnStatusesAreNotChecks(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, versionOnly)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	fake.SetStatus(repoName, 7, "ci/lint", "success")
	fake.SetStatus(repoName, 7, "pipeline-action/review", "success")
	fake.SetStatus(repoName, 7, "pipeline-action/review", "pending") // the latest counts
	fake.SetStatus(repoName, 7, "pipeline-action/merge", "failure")

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	var names []string
	for _, cr := range snap.Facts.PR.Checks {
		names = append(names, cr.Name)
	}
	assert.Equal(t, []string{"ci/lint"}, names)
	assert.Equal(t, map[string]string{"pipeline-action/review": "pending", "pipeline-action/merge": "failure"}, snap.Statuses)
}

// CreateStatus cuts a description to GitHub's 140 characters, which GitHub would refuse.
func TestCreateStatusCutsTheDescription(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	head := fake.PR(repoName, 7).HeadSHA
	err := c.CreateStatus(t.Context(), ghapi.Status{SHA: head, Context: "pipeline-action/review", State: "failure",
		Description: strings.Repeat("ü", 200), TargetURL: "https://github.com/acme/widgets/pull/7#issuecomment-1"})
	require.NoError(t, err)
	latest, _ := fake.HeadStatuses(repoName, 7)
	got := latest["pipeline-action/review"]
	assert.Equal(t, "failure", got.State)
	assert.Equal(t, ghapi.MaxStatusDescription, len([]rune(got.Description)))
	assert.True(t, strings.HasSuffix(got.Description, "…"))
	assert.Equal(t, "https://github.com/acme/widgets/pull/7#issuecomment-1", got.TargetURL)
	assertDocumented(t, fake)

	err = c.CreateStatus(t.Context(), ghapi.Status{SHA: strings.Repeat("0", 40), Context: "pipeline-action/review", State: "success"})
	assert.ErrorContains(t, err, "writing the commit status pipeline-action/review on 0000000")
}
