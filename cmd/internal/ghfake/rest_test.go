package ghfake

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRouting(t *testing.T) {
	tests := []struct {
		name, method, path string
		want               int
		unexpected         bool
	}{
		{"documented operation", "GET", "/api/v3/repos/acme/widgets/pulls/7", 200, false},
		{"unknown route", "GET", "/api/v3/repos/acme/widgets/pulls/7/nonsense", 404, true},
		{"wrong method", "PATCH", "/api/v3/repos/acme/widgets/pulls/7/merge", 404, true},
		{"absolute URL without prefix", "GET", "/repos/acme/widgets/pulls/7", 404, true},
		{"documented but not implemented", "POST", "/api/v3/repos/acme/widgets/git/blobs", 501, true},
		{"unknown repository", "GET", "/api/v3/repos/acme/nope/pulls/7", 404, false},
		{"ref with slashes", "DELETE", "/api/v3/repos/acme/widgets/git/refs/heads/feat/login", 204, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := widgets(t)
			req, err := http.NewRequest(tt.method, s.URL+tt.path, strings.NewReader("{}"))
			require.NoError(t, err)
			req.Header.Set("Authorization", "token "+s.BotToken())
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, tt.want, resp.StatusCode, string(body))
			got := expectUnexpected(s)
			if tt.unexpected {
				assert.Len(t, got, 1)
			} else {
				assert.Empty(t, got)
			}
		})
	}
}

func TestAuth(t *testing.T) {
	s := widgets(t)
	resp, err := http.Get(s.URL + "/api/v3/repos/acme/widgets/pulls/7")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	b, _ := io.ReadAll(resp.Body)
	assert.Contains(t, string(b), `"message":"Bad credentials"`)
}

func TestMerge(t *testing.T) {
	ctx := t.Context()
	tests := []struct {
		name     string
		setup    func(s *Server)
		opts     *github.PullRequestOptions
		sha      func(s *Server) string
		want     int
		message  string
		mergedOK bool
	}{
		{name: "merges", opts: &github.PullRequestOptions{MergeMethod: "squash"}, want: 200, message: "Pull Request successfully merged", mergedOK: true},
		{name: "with head sha", sha: func(s *Server) string { return s.PR(testRepo, 7).HeadSHA }, want: 200, mergedOK: true},
		{name: "stale sha", sha: func(*Server) string { return "0000000000000000000000000000000000000000" }, want: 409, message: "Head branch was modified. Review and try the merge again."},
		{name: "conflicting", setup: func(s *Server) { s.SetMergeable(testRepo, 7, "conflicting") }, want: 405, message: "Pull Request is not mergeable"},
		{name: "closed", setup: func(s *Server) { s.ClosePR(testRepo, 7) }, want: 405, message: "Pull Request is not mergeable"},
		{name: "bad method", opts: &github.PullRequestOptions{MergeMethod: "octopus"}, want: 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := widgets(t)
			if tt.setup != nil {
				tt.setup(s)
			}
			opts := tt.opts
			if opts == nil {
				opts = &github.PullRequestOptions{}
			}
			if tt.sha != nil {
				opts.SHA = tt.sha(s)
			}
			res, resp, err := client(t, s, s.BotToken()).PullRequests.Merge(ctx, "acme", "widgets", 7, "", opts)
			require.NotNil(t, resp)
			assert.Equal(t, tt.want, resp.StatusCode)
			if tt.want != 200 {
				var ge *github.ErrorResponse
				require.ErrorAs(t, err, &ge)
				if tt.message != "" {
					assert.Equal(t, tt.message, ge.Message)
				}
				assert.False(t, s.PR(testRepo, 7).Merged)
				return
			}
			require.NoError(t, err)
			assert.True(t, res.GetMerged())
			assert.Len(t, res.GetSHA(), 40)
			pr := s.PR(testRepo, 7)
			assert.True(t, pr.Merged)
			assert.Equal(t, "closed", pr.State)
			assert.Equal(t, BotLogin, pr.MergedBy)

			_, resp, err = client(t, s, s.BotToken()).PullRequests.Merge(ctx, "acme", "widgets", 7, "", &github.PullRequestOptions{})
			require.Error(t, err)
			assert.Equal(t, 405, resp.StatusCode, "a merged PR cannot be merged again")
		})
	}
}

func TestLabels(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	names := func(ls []*github.Label) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.GetName())
		}
		return out
	}
	for i := 0; i < 2; i++ {
		ls, _, err := c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{"ready"})
		require.NoError(t, err)
		assert.Equal(t, []string{"security", "ready"}, names(ls), "adding twice is idempotent")
	}
	ls, _, err := c.Issues.ListLabelsByIssue(ctx, "acme", "widgets", 7, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"security", "ready"}, names(ls))

	_, err = c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", 7, "security")
	require.NoError(t, err)
	assert.Equal(t, []string{"ready"}, s.PR(testRepo, 7).Labels)

	resp, err := c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", 7, "security")
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
	var ge *github.ErrorResponse
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, "Label does not exist", ge.Message)

	_, _, err = c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{"needs review"})
	require.NoError(t, err)
	_, err = c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", 7, "needs review")
	require.NoError(t, err, "label names are escaped in the path")
	assert.Equal(t, []string{"ready"}, s.PR(testRepo, 7).Labels)
	assert.Empty(t, expectUnexpected(s))
}

// TestLabelsIgnoreCase checks that the fake compares label names as GitHub does: adding
// "SECURITY" where "security" exists attaches "security" once; removing "wip" removes "WIP".
func TestLabelsIgnoreCase(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	ls, _, err := c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{"SECURITY", "WIP"})
	require.NoError(t, err)
	var got []string
	for _, l := range ls {
		got = append(got, l.GetName())
	}
	assert.Equal(t, []string{"security", "WIP"}, got, "the existing label, once")

	// Another PR labelled "Wip" gets the repository's label "WIP".
	s.OpenPR(testRepo, PROptions{Number: 8, Author: "dev", Head: "feat/b"})
	s.Label(testRepo, 8, "Wip", true)
	assert.Equal(t, []string{"WIP"}, s.PR(testRepo, 8).Labels)

	_, err = c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", 7, "wip")
	require.NoError(t, err)
	assert.Equal(t, []string{"security"}, s.PR(testRepo, 7).Labels)

	// The unlabeled event names the label as it was.
	ev := s.Label(testRepo, 8, "wip", false)
	var p struct {
		Label struct{ Name string } `json:"label"`
	}
	require.NoError(t, json.Unmarshal(ev.Payload, &p))
	assert.Equal(t, "WIP", p.Label.Name)
	assert.Empty(t, s.PR(testRepo, 8).Labels)
	assert.Empty(t, expectUnexpected(s))
}

// TestLabelDotSegments checks that a label named "." or "..", escaped as %2E, is one label:
// removing it removes that label only.
func TestLabelDotSegments(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	_, _, err := c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{".", ".."})
	require.NoError(t, err)
	_, err = c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", 7, "%2E%2E")
	require.NoError(t, err)
	assert.Equal(t, []string{".", "security"}, s.PR(testRepo, 7).Labels)
	_, err = c.Issues.RemoveLabelForIssue(ctx, "acme", "widgets", 7, "%2E")
	require.NoError(t, err)
	assert.Equal(t, []string{"security"}, s.PR(testRepo, 7).Labels)
	assert.Empty(t, expectUnexpected(s))
}

func TestComments(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	created, resp, err := c.Issues.CreateComment(ctx, "acme", "widgets", 7, &github.IssueComment{Body: github.String("first")})
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, BotLogin, created.GetUser().GetLogin())
	assert.Equal(t, "Bot", created.GetUser().GetType())

	s.SetClock(func() time.Time { return testClock.Add(time.Hour) })
	edited, _, err := c.Issues.EditComment(ctx, "acme", "widgets", created.GetID(), &github.IssueComment{Body: github.String("second")})
	require.NoError(t, err)
	assert.Equal(t, "second", edited.GetBody())

	got, _, err := c.Issues.GetComment(ctx, "acme", "widgets", created.GetID())
	require.NoError(t, err)
	assert.Equal(t, "second", got.GetBody(), "an edited comment really changes")
	assert.True(t, got.GetUpdatedAt().After(got.GetCreatedAt().Time))

	list, _, err := c.Issues.ListComments(ctx, "acme", "widgets", 7, nil)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "second", list[0].GetBody())
	views := s.Comments(testRepo, 7)
	require.Len(t, views, 1)
	assert.Equal(t, "second", views[0].Body)

	_, resp, err = c.Issues.EditComment(ctx, "acme", "widgets", 999999, &github.IssueComment{Body: github.String("x")})
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
}

func TestFailNext(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	s.FailNext("pulls/merge", 502, "Server Error")
	_, resp, err := c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	require.Error(t, err)
	assert.Equal(t, 502, resp.StatusCode)
	assert.False(t, s.PR(testRepo, 7).Merged)
	_, resp, err = c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	require.NoError(t, err, "a fault fires once")
	assert.Equal(t, 200, resp.StatusCode)
}

func TestPermissionAndReviews(t *testing.T) {
	ctx := t.Context()
	s := widgets(t)
	s.Review(testRepo, 7, "alice", "approved", "lgtm")
	c := client(t, s, s.BotToken())
	for login, want := range map[string][2]string{"alice": {"write", "write"}, "bob": {"admin", "admin"}, "stranger": {"none", "none"}} {
		p, _, err := c.Repositories.GetPermissionLevel(ctx, "acme", "widgets", login)
		require.NoError(t, err)
		assert.Equal(t, want[0], p.GetPermission(), login)
		assert.Equal(t, login, p.GetUser().GetLogin())
	}
	reviews, _, err := c.PullRequests.ListReviews(ctx, "acme", "widgets", 7, nil)
	require.NoError(t, err)
	require.Len(t, reviews, 1)
	assert.Equal(t, "APPROVED", reviews[0].GetState())
	assert.Equal(t, s.PR(testRepo, 7).HeadSHA, reviews[0].GetCommitID())
}

func TestDeleteRef(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	_, err := c.Git.DeleteRef(ctx, "acme", "widgets", "heads/feat/login")
	require.NoError(t, err)
	assert.True(t, s.PR(testRepo, 7).BranchDeleted)
	resp, err := c.Git.DeleteRef(ctx, "acme", "widgets", "heads/feat/login")
	require.Error(t, err)
	assert.Equal(t, 422, resp.StatusCode)
}

func TestStats(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	_, _, err := c.PullRequests.Get(ctx, "acme", "widgets", 7)
	require.NoError(t, err)
	_, _, err = c.PullRequests.Get(ctx, "acme", "widgets", 7)
	require.NoError(t, err)
	gql(t, s, s.BotToken(), `{viewer{login}}`, nil)
	assert.Equal(t, map[string]int{"pulls/get": 2, "graphql": 1}, s.Stats())
	calls := s.Calls()
	require.Len(t, calls, 3)
	assert.Equal(t, Call{Method: "GET", Path: "/api/v3/repos/acme/widgets/pulls/7", Kind: "pulls/get", Status: 200, Began: 1, Ended: 2}, calls[0])
	assert.Equal(t, "graphql", calls[2].Kind)
	assert.Equal(t, 3, InARow(calls), "each request began after the one before it ended")
	both := []Call{{Began: 1, Ended: 4}, {Began: 2, Ended: 3}, {Began: 5, Ended: 6}}
	assert.Equal(t, 2, InARow(both), "two requests side by side count once")
	s.ResetStats()
	assert.Empty(t, s.Stats())
	assert.Empty(t, s.Calls())
}

func TestDispatches(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	s.SetFile(testRepo, "main", ".github/workflows/agent.yml", agentWorkflow)
	_, err := c.Actions.CreateWorkflowDispatchEventByFileName(ctx, "acme", "widgets", "agent.yml",
		github.CreateWorkflowDispatchEventRequest{Ref: "main", Inputs: map[string]interface{}{"run_id": "r1"}})
	require.NoError(t, err)
	_, _, err = c.Repositories.Dispatch(ctx, "acme", "widgets", github.DispatchRequestOptions{EventType: "agent-report"})
	require.NoError(t, err)
	d := s.Dispatches()
	require.Len(t, d, 2)
	assert.NotZero(t, d[0].RunID)
	assert.False(t, d[0].Created.IsZero())
	d[0].RunID, d[0].Created = 0, time.Time{}
	assert.Equal(t, []Dispatch{
		{Repo: testRepo, Workflow: "agent.yml", Ref: "main", Inputs: map[string]any{"run_id": "r1"}, Name: "agent", RunName: "agent", Actor: BotLogin},
		{Repo: testRepo, EventType: "agent-report"},
	}, d)
}

// Rate-limit faults carry GitHub's headers and the documentation_url go-github recognises.
func TestInjectRateLimits(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	s.Inject("pulls/merge", Fault{Status: 403, Message: "You have exceeded a secondary rate limit", RetryAfter: 7})
	_, resp, err := c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	var abuse *github.AbuseRateLimitError
	require.ErrorAs(t, err, &abuse)
	assert.Equal(t, "7", resp.Header.Get("Retry-After"))
	require.NotNil(t, abuse.RetryAfter)
	assert.Equal(t, 7*time.Second, *abuse.RetryAfter)

	c = client(t, s, s.BotToken()) // go-github sends nothing more until the retry-after
	s.Inject("issues/add-labels", Fault{Status: 403, Message: "API rate limit exceeded for installation ID 1.", Reset: 60})
	_, resp, err = c.Issues.AddLabelsToIssue(ctx, "acme", "widgets", 7, []string{"x"})
	var rl *github.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.Equal(t, "0", resp.Header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, strconv.FormatInt(testClock.Add(time.Minute).Unix(), 10), resp.Header.Get("X-RateLimit-Reset"))

	c = client(t, s, s.BotToken())
	s.Inject("issues/create-comment", Fault{Status: 403, Message: "Resource not accessible by integration"})
	_, resp, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("x"))
	require.Error(t, err)
	assert.Empty(t, resp.Header.Get("Retry-After"), "a refusal is no rate limit")
	assert.Empty(t, resp.Header.Get("X-RateLimit-Remaining"))
}

// A timeout fault holds the request until the client gives up; closing the server ends it too.
func TestInjectTimeout(t *testing.T) {
	s, c := widgetsAsBot(t)
	s.Inject("pulls/merge", Fault{Timeout: true})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, _, err := c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.False(t, s.PR(testRepo, 7).Merged)
	assert.Eventually(t, func() bool { return s.Stats()["pulls/merge"] == 1 }, 5*time.Second, 10*time.Millisecond,
		"the held request ends when the client leaves")

	s.Inject("pulls/merge", Fault{Timeout: true})
	done := make(chan error, 1)
	go func() {
		_, _, err := c.PullRequests.Merge(t.Context(), "acme", "widgets", 7, "", nil)
		done <- err
	}()
	require.Eventually(t, func() bool {
		s.Mu.Lock()
		defer s.Mu.Unlock()
		return len(s.faults["pulls/merge"]) == 0
	}, 5*time.Second, 10*time.Millisecond)
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waits for the held request")
	}
	<-done
}
