package ghfake

import (
	"net/http"
	"sync"
	"testing"

	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitHubV4Client runs a facts-like query through githubv4, which sends anonymous documents.
func TestGitHubV4Client(t *testing.T) {
	s := widgets(t)
	s.Review(testRepo, 7, "alice", "approved", "")
	s.SetStatus(testRepo, 7, "ci/lint", "success")
	gh := githubv4.NewEnterpriseClient(s.URL+"/api/graphql", &http.Client{Transport: tokenTransport{s.BotToken()}})
	var q struct {
		Viewer     struct{ Login string }
		Repository struct {
			Config struct {
				Blob struct {
					Oid  string
					Text string
				} `graphql:"... on Blob"`
			} `graphql:"object(expression: $config)"`
			PullRequest struct {
				Number     int
				State      githubv4.PullRequestState
				Mergeable  githubv4.MergeableState
				HeadRefOid string
				Reviews    struct {
					Nodes []struct {
						Author                    struct{ Login string }
						State                     githubv4.PullRequestReviewState
						AuthorCanPushToRepository bool
					}
				} `graphql:"reviews(last: 20)"`
				Commits struct {
					Nodes []struct {
						Commit struct {
							StatusCheckRollup struct {
								State githubv4.StatusState
							}
						}
					}
				} `graphql:"commits(last: 1)"`
			} `graphql:"pullRequest(number: $number)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	err := gh.Query(t.Context(), &q, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"number": githubv4.Int(7), "config": githubv4.String("main:.github/pipelines.yaml"),
	})
	require.NoError(t, err)
	assert.Equal(t, "github-actions[bot]", q.Viewer.Login)
	assert.Equal(t, "version: 1\n", q.Repository.Config.Blob.Text)
	pr := q.Repository.PullRequest
	assert.Equal(t, 7, pr.Number)
	assert.Equal(t, githubv4.PullRequestStateOpen, pr.State)
	assert.Equal(t, githubv4.MergeableStateMergeable, pr.Mergeable)
	require.Len(t, pr.Reviews.Nodes, 1)
	assert.Equal(t, githubv4.PullRequestReviewStateApproved, pr.Reviews.Nodes[0].State)
	assert.True(t, pr.Reviews.Nodes[0].AuthorCanPushToRepository)
	assert.Equal(t, githubv4.StatusStateSuccess, pr.Commits.Nodes[0].Commit.StatusCheckRollup.State)
}

// TestConcurrentUse drives the world and the HTTP API at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	s, c := widgetsAsBot(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, _, err := c.Issues.CreateComment(t.Context(), "acme", "widgets", 7, ghComment("x"))
			assert.NoError(t, err)
			gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { comments(last: 5) { totalCount } } } }`, nil)
		}()
		go func() {
			defer wg.Done()
			s.Comment(testRepo, 7, "alice", "y")
			s.Label(testRepo, 7, "l", true)
			_ = s.Stats()
		}()
	}
	wg.Wait()
	assert.Len(t, s.Comments(testRepo, 7), 16)
	assert.Equal(t, 8, s.Stats()["issues/create-comment"])
}
