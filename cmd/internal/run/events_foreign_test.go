package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
)

// realPayload reads a delivery under webhooksDir as a JSON object, to make variants of it.
func realPayload(t *testing.T, rel string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(webhooksDir, rel))
	require.NoError(t, err)
	var p map[string]any
	require.NoError(t, json.Unmarshal(raw, &p))
	return p
}

// prEntry is a pull_requests entry of a commit event, in the shape of the real check_suite
// delivery's, with base.repo set to repo (nil: no repo).
func prEntry(t *testing.T, number int, repo map[string]any) map[string]any {
	t.Helper()
	cs := realPayload(t, "check_suite/completed.json")["check_suite"].(map[string]any)
	e := cs["pull_requests"].([]any)[0].(map[string]any)
	e["number"] = number
	base := e["base"].(map[string]any)
	if repo == nil {
		delete(base, "repo")
	} else {
		base["repo"] = repo
	}
	return e
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestRouteCommitEventForeignPRs holds routing to the pull_requests entries of this
// repository: GitHub lists there the PRs of any repository of the network whose head is
// the commit (a run in a fork names the upstream's PR), and their numbers mean nothing here.
func TestRouteCommitEventForeignPRs(t *testing.T) {
	const octo = "octo-org/octo-repo"
	here := map[string]any{"id": 300029405, "url": "https://api.github.com/repos/octo-org/octo-repo", "name": "octo-repo"}
	upstream := map[string]any{"id": 186853002, "url": "https://api.github.com/repos/Codertocat/Hello-World", "name": "Hello-World"}
	sameName := map[string]any{"id": 999, "url": "https://api.github.com/repos/someone/octo-repo", "name": "octo-repo"}
	urlOnly := map[string]any{"url": "https://api.github.com/repos/Octo-Org/octo-repo"}
	nameOnly := map[string]any{"name": "octo-repo"}
	const sha = "3484a3fb816e0859fd6e1cea078d76385ff50625" // the real run's head_sha
	tests := []struct {
		name    string
		entries []map[string]any
		numbers []int
		foreign []string
	}{
		{"another repository's PR only", []map[string]any{prEntry(t, 2, upstream)}, nil, []string{"Codertocat/Hello-World#2"}},
		{"this repository's PR kept, another's left out",
			[]map[string]any{prEntry(t, 2, upstream), prEntry(t, 5, here)}, []int{5}, []string{"Codertocat/Hello-World#2"}},
		{"a fork with the same name is another repository", []map[string]any{prEntry(t, 5, sameName)}, nil, []string{"someone/octo-repo#5"}},
		{"matched by API URL when the entry has no id", []map[string]any{prEntry(t, 5, urlOnly)}, []int{5}, nil},
		{"a name alone does not match", []map[string]any{prEntry(t, 5, nameOnly)}, nil,
			[]string{"https://api.github.com/repos/Codertocat/Hello-World/pulls/2"}},
		{"an entry without base repository does not match", []map[string]any{prEntry(t, 5, nil)}, nil,
			[]string{"https://api.github.com/repos/Codertocat/Hello-World/pulls/2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, event := range []string{"workflow_run", "check_suite", "check_run"} {
				p := realPayload(t, "workflow_run/requested.json")
				p["action"] = "completed"
				body := p["workflow_run"].(map[string]any)
				if event != "workflow_run" {
					delete(p, "workflow_run")
					body = map[string]any{"head_sha": sha}
					p[event] = body
				}
				var list []any
				for _, e := range tt.entries {
					list = append(list, e)
				}
				body["pull_requests"] = list
				got, err := route(event, marshal(t, p))
				require.NoError(t, err)
				want := routed{Handled: true, Event: event + ".completed", Repo: octo, DefaultBranch: "master",
					Actor: "Codertocat", Numbers: tt.numbers, SHA: sha, Foreign: tt.foreign}
				if event == "workflow_run" { // the real run names its head's repository and branch
					want.HeadRepo, want.HeadBranch = octo, "master"
				}
				assert.Equal(t, want, got, event)
			}
		})
	}
}

// TestRunWorkflowRunForeignPR delivers the real workflow_run, completed and listing another
// repository's PR #1, to a repository whose own #1 has another head and whose #2 has the
// run's head, both waiting for an approval they have got meanwhile: #2 is found by the
// head SHA and completes, #1 is not touched, and the log says why.
func TestRunWorkflowRunForeignPR(t *testing.T) {
	const octo = "octo-org/octo-repo"
	fake := faketest.New(t)
	fake.AddRepo(octo, "master")
	fake.SetFile(octo, "master", DefaultConfigPath, webhookConfig)
	fake.AddUser("alice", "write")
	deliver := func(ev ghfake.Event) (int, string) {
		path := filepath.Join(t.TempDir(), "event.json")
		require.NoError(t, os.WriteFile(path, ev.Payload, 0o600))
		return webhookRun(t, fake, ev.Name, path)
	}
	for _, n := range []int{1, 2} {
		code, log := deliver(fake.OpenPR(octo, ghfake.PROptions{Number: n, Author: "dev"}))
		require.Equal(t, 0, code, "log:\n%s", log)
		fake.Review(octo, n, "alice", "approved", "") // not delivered
	}
	stateOf := func(n int) string {
		cs := fake.Comments(octo, n)
		require.Len(t, cs, 1, "the state comment of #%d", n)
		return cs[0].Body
	}
	before1 := stateOf(1)
	head := fake.PR(octo, 2).HeadSHA
	require.NotEqual(t, head, fake.PR(octo, 1).HeadSHA)

	p := realPayload(t, "workflow_run/requested.json")
	p["action"] = "completed"
	wr := p["workflow_run"].(map[string]any)
	wr["head_sha"], wr["status"], wr["conclusion"] = head, "completed", "success"
	upstream := map[string]any{"id": 186853002, "url": "https://api.github.com/repos/Codertocat/Hello-World", "name": "Hello-World"}
	wr["pull_requests"] = []any{prEntry(t, 1, upstream)}
	ev, err := route("workflow_run", marshal(t, p))
	require.NoError(t, err)
	assert.Empty(t, ev.Numbers, "another repository's #1 is not this repository's #1")

	fake.ResetStats()
	code, log := deliver(ghfake.Event{Name: "workflow_run", Payload: marshal(t, p)})
	require.Equal(t, 0, code, "log:\n%s", log)
	assert.Contains(t, log, "workflow_run.completed lists Codertocat/Hello-World#1 of another repository; left out")
	assert.NotContains(t, log, "::error", "log:\n%s", log)
	assert.Equal(t, 3, fake.Stats()["graphql"], "one lookup by the head SHA, one snapshot and one commit of #2's state; log:\n%s", log)
	assert.Contains(t, stateOf(2), "completed", "#2, whose head the run is, was evaluated")
	assert.Equal(t, before1, stateOf(1), "#1 was not touched")
}
