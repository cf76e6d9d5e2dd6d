package run

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
)

// webhooksDir holds real deliveries, <event>/<action>.json.
const webhooksDir = "../../../testdata/github/webhooks"

// webhookConfig starts a run when a pull request opens; nothing else starts one.
const webhookConfig = `version: 1
pipelines:
  review:
    description: Wait for an approval
    trigger:
      event: pull_request.opened
    on_events:
      pull_request.closed: {action: cancel}
    stages:
      - id: approved
        type: gate
        conditions:
          - check: human_approved
            count: 1
        on_pass: complete
`

const (
	helloWorld   = "Codertocat/Hello-World"
	helloHeadSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
)

// webhookCase is what a payload file routes to, whether running it starts a pipeline run (and
// so writes the state comment), and what the job log says when that is worth checking.
type webhookCase struct {
	route  routed
	starts bool
	says   string
	// late: the PR is open and has no run yet, so the pipeline its opened event would
	// have started starts now, late (triggers are level-triggered).
	late bool
}

const saysNoSubject = "concerns no open pull request; nothing to do"

// webhookCases has one entry per file under webhooksDir, by path relative to it.
var webhookCases = map[string]webhookCase{
	"check_run/created.json": {route: routed{Event: "check_run.created"}},
	"check_suite/completed.json": {route: routed{Handled: true, Event: "check_suite.completed", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{2}, SHA: helloHeadSHA, HeadBranch: "changes"}, late: true},
	// A deployment's status: its commit names the PRs, as a status's does.
	"deployment_status/created.json": {route: routed{Handled: true, Event: "deployment_status.created", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", SHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}, says: saysNoSubject},
	// A comment on a plain issue and issues events: the subjects of issue pipelines.
	"issue_comment/created.json": {route: routed{Handled: true, Event: "issue_comment.created", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{1}, Issue: true, CommentID: 492700400}},
	"issues/closed.json": {route: routed{Handled: true, Event: "issues.closed", Repo: "codinasion/codinasion-bot",
		DefaultBranch: "master", Actor: "harshraj8843", Numbers: []int{2}, Issue: true}},
	"issues/labeled.json": {route: routed{Handled: true, Event: "issues.labeled", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{1}, Issue: true, Label: "bug"}},
	"issues/opened.json": {route: routed{Handled: true, Event: "issues.opened", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{1}, Issue: true}},
	// A merge group's branch names the pull request whose run waits in the queue.
	"merge_group/checks_requested.json": {route: routed{Handled: true, Event: "merge_group.checks_requested", Repo: "octo-org/octo-repo",
		DefaultBranch: "main", Actor: "Codertocat", Numbers: []int{104}}, late: true},
	"pull_request/closed.json": {route: routed{Handled: true, Event: "pull_request.closed", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{2}}},
	"pull_request/closed.merged.json": {route: routed{Handled: true, Event: "pull_request.closed",
		Repo: "codinasion/codinasion-bot-try", DefaultBranch: "master", Actor: "harshraj8843", Numbers: []int{14}}},
	"pull_request/edited.json": {route: routed{Handled: true, Event: "pull_request.edited",
		Repo: "bradrydzewski/drone-test-go", DefaultBranch: "master", Actor: "bradrydzewski", Numbers: []int{1}}, late: true},
	"pull_request/labeled.json": {route: routed{Handled: true, Event: "pull_request.labeled", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{2}, Label: "bug"}, late: true},
	"pull_request/opened.json": {route: routed{Handled: true, Event: "pull_request.opened", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{2}}, starts: true},
	"pull_request/synchronize.json": {route: routed{Handled: true, Event: "pull_request.synchronize", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{2}}, late: true},
	"pull_request/unlabeled.json": {route: routed{Handled: true, Event: "pull_request.unlabeled", Repo: helloWorld,
		DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{2}, Label: "bug"}, late: true},
	"pull_request_review/submitted.json": {route: routed{Handled: true, Event: "pull_request_review.submitted",
		Repo: helloWorld, DefaultBranch: "master", Actor: "Codertocat", Numbers: []int{2}}, late: true},
	"pull_request_review_comment/created.json": {route: routed{Event: "pull_request_review_comment.created"}},
	"push/payload.json":                        {route: routed{Event: "push"}},
	"repository_dispatch/on-demand-test.json":  {route: routed{Event: "repository_dispatch.on-demand-test"}},
	"status/payload.json": {route: routed{Handled: true, Event: "status", Repo: helloWorld, DefaultBranch: "master",
		Actor: "Codertocat", SHA: "6113728f27ae82c7b1a177c8d03f9e96e0adf246"}, says: saysNoSubject},
	"workflow_dispatch/payload.json": {route: routed{Event: "workflow_dispatch"}},
	"workflow_run/requested.json":    {route: routed{Event: "workflow_run.requested"}},
}

// webhookFile is one delivery under webhooksDir.
type webhookFile struct {
	rel   string // path relative to webhooksDir
	event string // the X-GitHub-Event: the folder name
	path  string
	raw   []byte
}

// webhookFiles walks webhooksDir and checks that webhookCases covers exactly its files.
func webhookFiles(t *testing.T) []webhookFile {
	t.Helper()
	var out []webhookFile
	err := filepath.WalkDir(webhooksDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		rel, err := filepath.Rel(webhooksDir, path)
		if err != nil {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		out = append(out, webhookFile{rel: rel, event: strings.SplitN(rel, "/", 2)[0], path: path, raw: raw})
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, out, "no payloads under %s", webhooksDir)
	var found, listed []string
	for _, f := range out {
		found = append(found, f.rel)
	}
	for rel := range webhookCases {
		listed = append(listed, rel)
	}
	sort.Strings(listed)
	require.Equal(t, listed, found, "webhookCases must list every payload file, and only those")
	return out
}

func TestRouteWebhooks(t *testing.T) {
	for _, f := range webhookFiles(t) {
		t.Run(f.rel, func(t *testing.T) {
			got, err := route(f.event, f.raw)
			require.NoError(t, err)
			assert.Equal(t, webhookCases[f.rel].route, got)
		})
	}
}

// TestRoutePullRequestTarget checks that pull_request_target, which carries the same payload,
// routes as pull_request does.
func TestRoutePullRequestTarget(t *testing.T) {
	n := 0
	for _, f := range webhookFiles(t) {
		if f.event != "pull_request" {
			continue
		}
		n++
		t.Run(f.rel, func(t *testing.T) {
			want, err := route("pull_request", f.raw)
			require.NoError(t, err)
			got, err := route("pull_request_target", f.raw)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.True(t, got.Handled)
			assert.True(t, strings.HasPrefix(got.Event, "pull_request."), got.Event)
		})
	}
	require.NotZero(t, n, "no pull_request payloads")
}

func TestRouteMalformed(t *testing.T) {
	tests := []struct {
		name    string
		event   string
		payload string
		wantErr string
	}{
		{name: "not JSON", event: "pull_request", payload: "{not json", wantErr: "reading pull_request payload: "},
		{name: "empty", event: "push", payload: "", wantErr: "reading push payload: "},
		{name: "a JSON array", event: "issues", payload: "[]", wantErr: "reading issues payload: "},
		{name: "wrong type", event: "pull_request", payload: `{"action": "opened", "pull_request": {"number": "2"}}`,
			wantErr: "reading pull_request payload: "},
		{name: "pull_request without pull_request", event: "pull_request", payload: `{"action": "opened"}`,
			wantErr: "pull_request payload has no pull_request"},
		{name: "pull_request_target without pull_request", event: "pull_request_target", payload: `{"action": "opened"}`,
			wantErr: "pull_request_target payload has no pull_request"},
		{name: "review without pull_request", event: "pull_request_review", payload: `{"action": "submitted"}`,
			wantErr: "pull_request_review payload has no pull_request"},
		{name: "issue_comment without issue", event: "issue_comment", payload: `{"action": "created"}`,
			wantErr: "issue_comment payload has no issue"},
		{name: "workflow_run without workflow_run", event: "workflow_run", payload: `{"action": "completed"}`,
			wantErr: "workflow_run payload has no workflow_run"},
		{name: "check_suite without check_suite", event: "check_suite", payload: `{"action": "completed"}`,
			wantErr: "check_suite payload has no check_suite"},
		{name: "status without sha", event: "status", payload: `{"state": "success"}`,
			wantErr: "status payload has no sha"},
		{name: "pull_request without repository", event: "pull_request", payload: `{"action": "opened", "pull_request": {"number": 2}}`,
			wantErr: "pull_request payload has no repository.full_name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := route(tt.event, []byte(tt.payload))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Equal(t, routed{}, got)
		})
	}
}

// webhookRun runs one delivery through the real run path against fake, as simulate does, and
// returns the exit code and the job log.
func webhookRun(t *testing.T, fake *ghfake.Server, event, path string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_EVENT_PATH":   path,
		"GITHUB_API_URL":      fake.URL + "/api/v3",
		"GITHUB_GRAPHQL_URL":  fake.URL + "/api/graphql",
		"GITHUB_RUN_ID":       "4242",
		"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"INPUT_TOKEN":         fake.BotToken(),
	}
	var log bytes.Buffer
	r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &log,
		Now: func() time.Time { return time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC) }}
	return r.Run(t.Context()), log.String()
}

// webhookSubjects is what a payload says about the repository and the subjects it names.
type webhookSubjects struct {
	MergeGroup *struct {
		HeadRef string `json:"head_ref"`
	} `json:"merge_group"`
	Repository *struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	PullRequest *struct {
		Number int    `json:"number"`
		State  string `json:"state"`
		Merged bool   `json:"merged"`
		Title  string `json:"title"`
		User   struct {
			Login string `json:"login"`
		} `json:"user"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int             `json:"number"`
		Title       string          `json:"title"`
		PullRequest json.RawMessage `json:"pull_request"`
		User        struct {
			Login string `json:"login"`
		} `json:"user"`
	} `json:"issue"`
	WorkflowRun *commitEvent `json:"workflow_run"`
	CheckSuite  *commitEvent `json:"check_suite"`
	CheckRun    *commitEvent `json:"check_run"`
}

// webhookWorld builds the world a delivery comes from: its repository with the config on the
// default branch, and the pull requests or issues it names, as far as the fake can make them.
func webhookWorld(t *testing.T, f webhookFile) *ghfake.Server {
	t.Helper()
	var p webhookSubjects
	require.NoError(t, json.Unmarshal(f.raw, &p))
	require.NotNil(t, p.Repository, "every payload names its repository")
	fake := faketest.New(t)
	repo := p.Repository.FullName
	// The config is older than the subjects: a late start counts only a trigger that began
	// to hold strictly after it.
	fake.SetClock(func() time.Time { return time.Now().Add(-time.Hour) })
	fake.AddRepo(repo, p.Repository.DefaultBranch)
	fake.SetFile(repo, p.Repository.DefaultBranch, DefaultConfigPath, webhookConfig)
	fake.SetClock(time.Now)
	opened := map[int]bool{}
	openPR := func(n int, author, title string) {
		if !opened[n] {
			opened[n] = true
			fake.OpenPR(repo, ghfake.PROptions{Number: n, Author: author, Title: title})
		}
	}
	if pr := p.PullRequest; pr != nil {
		openPR(pr.Number, pr.User.Login, pr.Title)
		switch {
		case pr.Merged:
			c, err := ghapi.New(ghapi.Options{Token: fake.BotToken(), RESTURL: fake.URL + "/api/v3",
				GraphQLURL: fake.URL + "/api/graphql", Repository: repo})
			require.NoError(t, err)
			o := c.Perform(t.Context(), model.Effect{Kind: model.EffectMerge, Number: pr.Number,
				SHA: fake.PR(repo, pr.Number).HeadSHA, Method: "merge"})
			require.Empty(t, o.Err)
		case pr.State == "closed":
			fake.ClosePR(repo, pr.Number)
		}
	}
	if is := p.Issue; is != nil {
		if len(is.PullRequest) > 0 && string(is.PullRequest) != "null" {
			openPR(is.Number, is.User.Login, is.Title)
		} else {
			fake.OpenIssue(repo, ghfake.IssueOptions{Number: is.Number, Author: is.User.Login, Title: is.Title})
		}
	}
	if mg := p.MergeGroup; mg != nil {
		if m := queueRef.FindStringSubmatch(mg.HeadRef); m != nil {
			n, _ := strconv.Atoi(m[1])
			openPR(n, "", "")
		}
	}
	for _, c := range []*commitEvent{p.WorkflowRun, p.CheckSuite, p.CheckRun} {
		if c != nil {
			for _, pr := range c.PullRequests {
				openPR(pr.Number, "", "")
			}
		}
	}
	fake.ResetStats()
	return fake
}

// TestRunWebhooks delivers every real payload through the run path to a fake GitHub holding the
// payload's repository and subjects.
func TestRunWebhooks(t *testing.T) {
	_, err := engine.Load(DefaultConfigPath, []byte(webhookConfig), gates.Default())
	require.NoError(t, err, "the test's config is valid")
	for _, f := range webhookFiles(t) {
		t.Run(f.rel, func(t *testing.T) {
			tc := webhookCases[f.rel]
			fake := webhookWorld(t, f)
			code, log := webhookRun(t, fake, f.event, f.path)
			require.Equal(t, 0, code, "exit code; log:\n%s", log)
			lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
			if !tc.route.Handled {
				assert.Len(t, lines, 1, "one line for an event the action never handles; log:\n%s", log)
				assert.Contains(t, log, "nothing to do")
				assert.Empty(t, fake.Stats(), "an event the action never handles costs no call")
				return
			}
			assert.Empty(t, fake.Unexpected(), "requests GitHub would refuse")
			assert.Contains(t, log, "pipeline-action: API calls: ")
			assert.NotContains(t, log, "::error", "log:\n%s", log)
			assert.Contains(t, log, tc.says)
			stats := fake.Stats()
			assert.LessOrEqual(t, stats["graphql"], 1+1+2*len(tc.route.Numbers),
				"one read per subject (and one lookup by SHA), the state branch created once, one commit per subject")
			for _, n := range tc.route.Numbers {
				if tc.starts || tc.late {
					comments := fake.Comments(tc.route.Repo, n)
					require.Len(t, comments, 1, "the state comment of the new run; log:\n%s", log)
					assert.Equal(t, ghfake.BotLogin, comments[0].Author)
					assert.Contains(t, comments[0].Body, "review")
					if tc.late {
						assert.Contains(t, comments[0].Body, "started late on "+tc.route.Event)
					}
				} else {
					assert.Empty(t, fake.Comments(tc.route.Repo, n), "no run, nothing written")
				}
			}
		})
	}
}

// TestRunMalformedPayload checks that a payload that is not what GitHub sends is a reported
// failure (exit 1) that reads and writes nothing.
func TestRunMalformedPayload(t *testing.T) {
	tests := []struct {
		name    string
		event   string
		payload string
	}{
		{name: "not JSON", event: "pull_request", payload: `{"action": "opened", "pull_request": {"number": 2`},
		{name: "no pull_request", event: "pull_request", payload: `{"action": "opened", "repository": {"full_name": "Codertocat/Hello-World", "default_branch": "master"}}`},
		{name: "no repository", event: "pull_request", payload: `{"action": "opened", "pull_request": {"number": 2}}`},
		{name: "comment without issue", event: "issue_comment", payload: `{"action": "created", "repository": {"full_name": "Codertocat/Hello-World"}}`},
		{name: "status without sha", event: "status", payload: `{"state": "success", "repository": {"full_name": "Codertocat/Hello-World"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := faketest.New(t)
			fake.AddRepo(helloWorld, "master")
			fake.SetFile(helloWorld, "master", DefaultConfigPath, webhookConfig)
			fake.OpenPR(helloWorld, ghfake.PROptions{Number: 2, Author: "Codertocat", Labels: []string{"bug"}})
			before := fake.PR(helloWorld, 2)
			fake.ResetStats()
			path := filepath.Join(t.TempDir(), "event.json")
			require.NoError(t, os.WriteFile(path, []byte(tt.payload), 0o600))
			code, log := webhookRun(t, fake, tt.event, path)
			assert.Equal(t, 1, code, "log:\n%s", log)
			assert.Contains(t, log, "::error::")
			assert.Contains(t, log, "event left alone")
			assert.Empty(t, fake.Stats(), "no call made")
			assert.Equal(t, before, fake.PR(helloWorld, 2), "the pull request is unchanged")
			assert.Empty(t, fake.Comments(helloWorld, 2))
		})
	}
}

// TestIssueCommentOnPullRequest takes the real issue_comment delivery and makes its issue a pull
// request, as GitHub marks one with issue.pull_request: that comment is routed to the PR and read.
func TestIssueCommentOnPullRequest(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(webhooksDir, "issue_comment", "created.json"))
	require.NoError(t, err)
	var p map[string]any
	require.NoError(t, json.Unmarshal(raw, &p))
	p["issue"].(map[string]any)["pull_request"] = map[string]any{
		"url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/1",
	}
	raw, err = json.Marshal(p)
	require.NoError(t, err)

	got, err := route("issue_comment", raw)
	require.NoError(t, err)
	assert.Equal(t, routed{Handled: true, Event: "issue_comment.created", Repo: helloWorld, DefaultBranch: "master",
		Actor: "Codertocat", Numbers: []int{1}, CommentID: 492700400}, got)

	path := filepath.Join(t.TempDir(), "event.json")
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	fake := webhookWorld(t, webhookFile{rel: "issue_comment/on-pr.json", event: "issue_comment", path: path, raw: raw})
	assert.Equal(t, "open", fake.PR(helloWorld, 1).State, "the world has #1 as a pull request")
	code, log := webhookRun(t, fake, "issue_comment", path)
	require.Equal(t, 0, code, "log:\n%s", log)
	assert.Equal(t, map[string]int{"graphql": 2, "issues/create-comment": 1}, fake.Stats(),
		"one read; #1 is open and has no run, so its pipeline starts late: the state branch is created with the "+
			"state committed on it (createRef and createCommitOnBranch in one request) and the state comment posted, in one call")
	comments := fake.Comments(helloWorld, 1)
	require.Len(t, comments, 1)
	assert.Contains(t, comments[0].Body, "started late on issue_comment.created")
}

// TestRoutePushToBranch: GitHub's push payload (a tag deleted, which is ignored) moved to a
// branch routes as the push to that base; a branch deleted is ignored, like a tag.
func TestRoutePushToBranch(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(webhooksDir, "push", "payload.json"))
	require.NoError(t, err)
	var p map[string]any
	require.NoError(t, json.Unmarshal(raw, &p))
	p["ref"], p["deleted"] = "refs/heads/master", false
	moved, err := json.Marshal(p)
	require.NoError(t, err)
	got, err := route("push", moved)
	require.NoError(t, err)
	assert.Equal(t, routed{Handled: true, Event: "push", Repo: helloWorld, DefaultBranch: "master", Actor: "Codertocat", Pushed: "master"}, got)

	p["deleted"] = true
	gone, err := json.Marshal(p)
	require.NoError(t, err)
	got, err = route("push", gone)
	require.NoError(t, err)
	assert.False(t, got.Handled, "a deleted branch moves no base")
}
