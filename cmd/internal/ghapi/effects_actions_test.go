package ghapi_test

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

func TestPerformLabelAddsAndRemoves(t *testing.T) {
	fake, c := setup(t)
	openPR(fake, "wip")
	o := c.Perform(t.Context(), model.Effect{Key: "r/l/1/label", Kind: model.EffectLabel, Number: 7,
		Labels: []string{"ready"}, Remove: []string{"wip"}})
	assert.Equal(t, model.Outcome{Key: "r/l/1/label"}, o)
	assert.Equal(t, []string{"ready"}, fake.PR(repoName, 7).Labels)
	assertDocumented(t, fake)
}

func TestPerformCloseIssue(t *testing.T) {
	fake, c := setup(t)
	openPR(fake)
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 12, Author: "dev"})
	o := c.Perform(t.Context(), model.Effect{Key: "r/c/1/close_issue", Kind: model.EffectCloseIssue, Number: 12})
	assert.Equal(t, model.Outcome{Key: "r/c/1/close_issue"}, o)
	assert.Equal(t, "closed", fake.IssueView(repoName, 12).State)

	// Closed already: done, without writing.
	before := fake.Stats()["issues/update"]
	o = c.Perform(t.Context(), model.Effect{Key: "r/c/2/close_issue", Kind: model.EffectCloseIssue, Number: 12})
	assert.Empty(t, o.Err)
	assert.Equal(t, before, fake.Stats()["issues/update"])

	// A pull request is not closed by close_issue.
	o = c.Perform(t.Context(), model.Effect{Key: "r/c/3/close_issue", Kind: model.EffectCloseIssue, Number: 7})
	assert.Contains(t, o.Err, "it is a pull request, not an issue")
	assert.Equal(t, "open", fake.PR(repoName, 7).State)
	assertDocumented(t, fake)
}

func TestPerformCreateIssueCarriesItsMarker(t *testing.T) {
	fake, c := setup(t)
	o := c.Perform(t.Context(), model.Effect{Key: "r/n/1/create_issue", Kind: model.EffectCreateIssue,
		Title: "Follow up #7", Body: "details", Labels: []string{"followup"}})
	assert.Equal(t, model.Outcome{Key: "r/n/1/create_issue"}, o)
	issues := fake.Issues(repoName)
	require.Len(t, issues, 1)
	assert.Equal(t, "Follow up #7", issues[0].Title)
	assert.Equal(t, []string{"followup"}, issues[0].Labels)
	assert.True(t, strings.HasPrefix(issues[0].Body, "details\n\n"))
	assert.Equal(t, []string{"r/n/1/create_issue"}, model.PostedEffects(issues[0].Body))
	assertDocumented(t, fake)
}

func TestPerformRequestReviewersAndAssign(t *testing.T) {
	fake, c := setup(t)
	fake.AddUser("alice", "write")
	fake.AddUser("bob", "read")
	openPR(fake)
	o := c.Perform(t.Context(), model.Effect{Key: "r/rr/1/request_reviewers", Kind: model.EffectRequestReviewers, Number: 7,
		Reviewers: []string{"alice"}, Teams: []string{"core"}})
	assert.Empty(t, o.Err)
	assert.Equal(t, []string{"alice", "team:core"}, fake.RequestedReviewers(repoName, 7))

	// The author cannot be asked: GitHub refuses, for good.
	o = c.Perform(t.Context(), model.Effect{Key: "r/rr/2/request_reviewers", Kind: model.EffectRequestReviewers, Number: 7,
		Reviewers: []string{"dev"}})
	assert.Contains(t, o.Err, "request_reviewers refused (422)")
	assert.True(t, o.Permanent)

	o = c.Perform(t.Context(), model.Effect{Key: "r/a/1/assign", Kind: model.EffectAssign, Number: 7,
		Assignees: []string{"alice", "bob", "stranger"}})
	assert.Empty(t, o.Err)
	assert.Equal(t, []string{"alice", "bob"}, fake.Assignees(repoName, 7), "who has no access is left out, as GitHub does")
	assertDocumented(t, fake)
}

func TestSnapshotReadsTheIssuesAPullRequestCloses(t *testing.T) {
	fake, c := setup(t)
	fake.AddRepo("acme/other", "main")
	fake.OpenIssue("acme/other", ghfake.IssueOptions{Number: 3, Author: "dev"})
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 3, Author: "dev"})
	fake.OpenIssue(repoName, ghfake.IssueOptions{Number: 12, Author: "dev"})
	// The issue of another repository is not this repository's #3.
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Body: "Fixes acme/other#3, fixes #12"})
	snap, err := c.Snapshot(t.Context(), 7, "main", configPath)
	require.NoError(t, err)
	assert.Equal(t, []int{12}, snap.Facts.PR.LinkedIssues)
}

func TestPerformMergeOfAWorkflowChangeNeedsTheWorkflowsPermission(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 9, Author: "dev", Head: "ci/bump", Files: []string{".github/workflows/test.yml"}})
	pr := fake.PR(repoName, 9)
	o := c.Perform(t.Context(), model.Effect{Key: "r/m/1/merge_pr", Kind: model.EffectMerge, Number: 9, SHA: pr.HeadSHA, Method: "squash"})
	assert.True(t, o.Permanent, "not retried: no later event gives the token the permission")
	assert.Contains(t, o.Err, "merge refused (403): the pull request changes .github/workflows/test.yml, and GitHub lets only a token with the `workflows` permission")
	assert.False(t, fake.PR(repoName, 9).Merged)
	assertDocumented(t, fake)
}

func TestWorkflowRefusalOfAPersonalToken(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 9, Author: "dev", Head: "ci/bump", Files: []string{".github/workflows/test.yml"}})
	fake.FailNext("pulls/merge", 403, "refusing to allow an OAuth App to create or update workflow `.github/workflows/test.yml` without `workflow` scope")
	o := c.Perform(t.Context(), model.Effect{Key: "r/m/1/merge_pr", Kind: model.EffectMerge, Number: 9, SHA: fake.PR(repoName, 9).HeadSHA})
	assert.True(t, o.Permanent)
	assert.Contains(t, o.Err, "the pull request changes .github/workflows/test.yml, and GitHub lets only a token with the `workflows` permission")
}
