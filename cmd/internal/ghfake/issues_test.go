package ghfake

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The issue query of cmd/internal/ghapi/facts_issue.go, copied with an "adapter" prefix;
// TestAdapterIssueQueriesCopied keeps the copies equal to the originals. The query adds one
// alias per pull request (pr0: pullRequest(number: $pr0)); here with one.

type adapterIssueFields struct {
	Number    int
	Title     string
	State     string
	Author    *adapterActor
	CreatedAt githubv4.DateTime
	Labels    struct {
		PageInfo adapterPageForward
		Nodes    []adapterLabelNode
	} `graphql:"labels(first: 100)"`
	Comments struct {
		PageInfo adapterPageForward
		Nodes    []adapterCommentNode
	} `graphql:"comments(first: 100)"`
	Recent struct {
		PageInfo adapterPageBackward
		Nodes    []adapterCommentNode
	} `graphql:"recent: comments(last: 100)"`
	TimelineItems struct {
		PageInfo adapterPageBackward
		Nodes    []adapterIssueTimelineNode
	} `graphql:"timelineItems(last: 100, itemTypes: [LABELED_EVENT, UNLABELED_EVENT, REOPENED_EVENT])"`
}

type adapterIssueTimelineNode struct {
	Typename     string `graphql:"__typename"`
	LabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     adapterLabelNode
	} `graphql:"... on LabeledEvent"`
	UnlabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     adapterLabelNode
	} `graphql:"... on UnlabeledEvent"`
	ReopenedEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ReopenedEvent"`
}

type adapterIssueRepoFields struct {
	Id               string
	DefaultBranchRef *struct {
		Name   string
		Target *struct {
			Oid    string
			Commit struct {
				ConfigLog struct {
					Nodes []struct{ CommittedDate githubv4.DateTime }
				} `graphql:"configLog: history(first: 1, path: $configPath)"`
				ConfigDirLog struct {
					Nodes []struct{ CommittedDate githubv4.DateTime }
				} `graphql:"configDirLog: history(first: 1, path: $configDirPath)"`
			} `graphql:"... on Commit"`
		}
	}
	StateRef *adapterStateRef `graphql:"stateRef: ref(qualifiedName: $stateRef)"`
	Config   *struct {
		Blob adapterBlobFields `graphql:"... on Blob"`
	} `graphql:"config: object(expression: $configExpr)"`
	ConfigDir *struct {
		Tree adapterTreeFields `graphql:"... on Tree"`
	} `graphql:"configDir: object(expression: $configDirExpr)"`
	Issue *adapterIssueFields `graphql:"issue(number: $number)"`
}

// TestSchemaSubsetServesIssueQuery runs the issue query, with one pull request's alias,
// against a fake that has only the embedded subset.
func TestSchemaSubsetServesIssueQuery(t *testing.T) {
	s := subsetWorld(t)
	s.OpenIssue(testRepo, IssueOptions{Number: 4, Author: "alice", Title: "Add a widget"})
	s.Label(testRepo, 4, "feature", true)
	s.Label(testRepo, 4, "feature", false)
	s.Comment(testRepo, 4, "alice", "/pipeline status")
	s.Review(testRepo, 7, "alice", "approved", "")
	gh := githubv4.NewEnterpriseClient(s.URL+"/api/graphql", &http.Client{Transport: tokenTransport{s.BotToken()}})

	var q struct {
		Viewer     adapterActor
		Repository struct {
			adapterIssueRepoFields
			PR0 *adapterPrFields `graphql:"pr0: pullRequest(number: $pr0)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	require.NoError(t, gh.Query(context.Background(), &q, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"number": githubv4.Int(4), "configExpr": githubv4.String("main:.github/pipelines.yaml"),
		"configDirExpr": githubv4.String("main:.github/pipelines"),
		"configPath":    githubv4.String(".github/pipelines.yaml"), "configDirPath": githubv4.String(".github/pipelines"),
		"stateRef": githubv4.String("refs/heads/pipeline-action/state"), "stateFile": githubv4.String("issue-4.json"),
		"stateIndex": githubv4.String("index.json"), "stateShard": githubv4.String("index/00.json"), "stateOutputs": githubv4.String("outputs/issue-4"), "pr0": githubv4.Int(7),
	}))
	is := q.Repository.Issue
	require.NotNil(t, is)
	assert.Equal(t, "OPEN", is.State)
	assert.Equal(t, "alice", is.Author.Login)
	assert.Empty(t, is.Labels.Nodes)
	require.Len(t, is.TimelineItems.Nodes, 2)
	assert.Equal(t, "LabeledEvent", is.TimelineItems.Nodes[0].Typename)
	assert.Equal(t, "feature", is.TimelineItems.Nodes[0].LabeledEvent.Label.Name)
	assert.Equal(t, "UnlabeledEvent", is.TimelineItems.Nodes[1].Typename)
	require.Len(t, is.Comments.Nodes, 1)
	require.NotNil(t, q.Repository.PR0)
	assert.Equal(t, 7, q.Repository.PR0.Number)
	require.Len(t, q.Repository.PR0.Reviews.Nodes, 1)
}

// TestAdapterIssueQueriesCopied keeps the copies above equal to ghapi's.
func TestAdapterIssueQueriesCopied(t *testing.T) {
	orig := typeSpecs(t, "../ghapi/facts_issue.go", "")
	copied := typeSpecs(t, "issues_test.go", "adapter")
	for _, name := range []string{"issueFields", "issueTimelineNode", "issueRepoFields"} {
		require.Contains(t, orig, name)
		assert.Equal(t, orig[name], copied[name], "type %s differs from ghapi's: copy it here as adapter%s%s", name, strings.ToUpper(name[:1]), name[1:])
	}
}

// TestMergeClosesLinkedIssues: a pull request into the default branch whose body says
// "Fixes #4" closes #4 when merged, as GitHub does; an issue it only mentions stays open.
func TestMergeClosesLinkedIssues(t *testing.T) {
	s := widgets(t)
	s.OpenIssue(testRepo, IssueOptions{Number: 4, Author: "alice"})
	s.OpenIssue(testRepo, IssueOptions{Number: 5, Author: "alice"})
	s.OpenPR(testRepo, PROptions{Number: 9, Author: "dev", Head: "feat-4", Body: "Fixes #4, see #5"})
	c := client(t, s, s.BotToken())
	_, _, err := c.PullRequests.Merge(context.Background(), "acme", "widgets", 9, "", nil)
	require.NoError(t, err)
	assert.Equal(t, "closed", s.IssueView(testRepo, 4).State)
	assert.Equal(t, "open", s.IssueView(testRepo, 5).State)
}
