package ghfake

import (
	"net/http"
	"testing"

	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSchemaSubsetServesIssueQuery runs the adapter's issue query, with one pull request's
// alias, against a fake that has only the embedded subset.
func TestSchemaSubsetServesIssueQuery(t *testing.T) {
	s := subsetWorld(t)
	s.OpenIssue(testRepo, IssueOptions{Number: 4, Author: "alice", Title: "Add a widget"})
	s.Label(testRepo, 4, "feature", true)
	s.Label(testRepo, 4, "feature", false)
	s.Comment(testRepo, 4, "alice", "/pipeline status")
	s.Review(testRepo, 7, "alice", "approved", "")
	gh := githubv4.NewEnterpriseClient(s.URL+"/api/graphql", &http.Client{Transport: tokenTransport{s.BotToken()}})

	q := play(t, gh, adapterQuery("issue"), subjectVars("issue", 4, "index/00.json"))
	is := field(t, q, "Repository.Issue")
	require.NotNil(t, is)
	assert.Equal(t, "OPEN", field(t, is, "State"))
	assert.Equal(t, "alice", field(t, is, "Author.Login"))
	assert.Empty(t, field(t, is, "Labels.Nodes"))
	require.Len(t, field(t, is, "TimelineItems.Nodes"), 2)
	assert.Equal(t, "LabeledEvent", field(t, is, "TimelineItems.Nodes[0].Typename"))
	assert.Equal(t, "feature", field(t, is, "TimelineItems.Nodes[0].LabeledEvent.Label.Name"))
	assert.Equal(t, "UnlabeledEvent", field(t, is, "TimelineItems.Nodes[1].Typename"))
	require.Len(t, field(t, is, "Comments.Nodes"), 1)
	require.NotNil(t, field(t, q, "Repository.PR0"))
	assert.Equal(t, 7, field(t, q, "Repository.PR0.Number"))
	require.Len(t, field(t, q, "Repository.PR0.Reviews.Nodes"), 1)
}

// TestMergeClosesLinkedIssues: a pull request into the default branch whose body says
// "Fixes #4" closes #4 when merged, as GitHub does; an issue it only mentions stays open.
func TestMergeClosesLinkedIssues(t *testing.T) {
	s := widgets(t)
	s.OpenIssue(testRepo, IssueOptions{Number: 4, Author: "alice"})
	s.OpenIssue(testRepo, IssueOptions{Number: 5, Author: "alice"})
	s.OpenPR(testRepo, PROptions{Number: 9, Author: "dev", Head: "feat-4", Body: "Fixes #4, see #5"})
	c := client(t, s, s.BotToken())
	_, _, err := c.PullRequests.Merge(t.Context(), "acme", "widgets", 9, "", nil)
	require.NoError(t, err)
	assert.Equal(t, "closed", s.IssueView(testRepo, 4).State)
	assert.Equal(t, "open", s.IssueView(testRepo, 5).State)
}
