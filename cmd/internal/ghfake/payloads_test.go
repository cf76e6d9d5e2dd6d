package ghfake

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// omittedTopKeys are top-level keys of real deliveries the fake leaves out (see package shapes).
var omittedTopKeys = []string{"installation", "organization"}

// mainObjects are the payload keys whose own keys are compared too.
var mainObjects = []string{"pull_request", "review", "issue", "comment", "workflow_run", "check_suite", "deployment", "deployment_status"}

// TestPayloadShapes holds every event the world emits to a real delivery of the same event: every
// top-level key and every key of the main objects in the real example is in the fake's payload.
func TestPayloadShapes(t *testing.T) {
	tests := []struct {
		name   string
		real   string // webhooks/<file>
		event  func(s *Server) Event
		wantEv [2]string
	}{
		{"pr opened", "pull_request/opened.json", func(s *Server) Event {
			return s.OpenPR(testRepo, PROptions{Number: 8, Author: "dev", Title: "x"})
		}, [2]string{"pull_request", "opened"}},
		{"pr synchronize", "pull_request/synchronize.json", func(s *Server) Event { return s.Push(testRepo, 7) }, [2]string{"pull_request", "synchronize"}},
		{"pr closed", "pull_request/closed.json", func(s *Server) Event { return s.ClosePR(testRepo, 7) }, [2]string{"pull_request", "closed"}},
		{"pr converted to draft", "pull_request/opened.json", func(s *Server) Event {
			ev, err := s.SetDraft(testRepo, 7, true, "")
			require.NoError(t, err)
			return ev
		}, [2]string{"pull_request", "converted_to_draft"}},
		{"pr labeled", "pull_request/labeled.json", func(s *Server) Event { return s.Label(testRepo, 7, "ready", true) }, [2]string{"pull_request", "labeled"}},
		{"pr unlabeled", "pull_request/unlabeled.json", func(s *Server) Event { return s.Label(testRepo, 7, "security", false) }, [2]string{"pull_request", "unlabeled"}},
		{"review submitted", "pull_request_review/submitted.json", func(s *Server) Event {
			return s.Review(testRepo, 7, "alice", "approved", "lgtm")
		}, [2]string{"pull_request_review", "submitted"}},
		{"review dismissed", "pull_request_review/submitted.json", func(s *Server) Event {
			s.Review(testRepo, 7, "alice", "changes_requested", "no")
			return s.DismissReview(testRepo, 7, "alice")
		}, [2]string{"pull_request_review", "dismissed"}},
		{"comment on a PR", "issue_comment/created.json", func(s *Server) Event {
			ev, _ := s.Comment(testRepo, 7, "bob", "/pipeline retry")
			return ev
		}, [2]string{"issue_comment", "created"}},
		{"issue opened", "issues/opened.json", func(s *Server) Event {
			return s.OpenIssue(testRepo, IssueOptions{Number: 12, Author: "dev", Title: "Add search", Labels: []string{"feature"}})
		}, [2]string{"issues", "opened"}},
		{"issue labeled", "issues/labeled.json", func(s *Server) Event {
			s.OpenIssue(testRepo, IssueOptions{Number: 12, Author: "dev"})
			return s.Label(testRepo, 12, "bug", true)
		}, [2]string{"issues", "labeled"}},
		{"workflow run completed", "workflow_run/requested.json", func(s *Server) Event {
			return s.CompleteCheck(testRepo, 7, "test", "success", "")
		}, [2]string{"workflow_run", "completed"}},
		{"check suite completed", "check_suite/completed.json", func(s *Server) Event {
			return s.CompleteCheck(testRepo, 7, "lint", "failure", "octo-lint")
		}, [2]string{"check_suite", "completed"}},
		{"deployment status", "deployment_status/created.json", func(s *Server) Event {
			return s.Deploy(testRepo, 7, "staging", "success")
		}, [2]string{"deployment_status", "created"}},
		{"status", "status/payload.json", func(s *Server) Event { return s.SetStatus(testRepo, 7, "ci/lint", "success") }, [2]string{"status", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertShape(t, tt.event(widgets(t)), tt.real, tt.wantEv)
		})
	}
}

// assertShape holds ev to the real delivery webhooks/<real> of the same event: every
// top-level key and every key of the main objects in the real example is in ev's payload.
func assertShape(t *testing.T, ev Event, real string, wantEv [2]string) {
	t.Helper()
	assert.Equal(t, wantEv, [2]string{ev.Name, ev.Action})
	var got, want map[string]any
	require.NoError(t, json.Unmarshal(ev.Payload, &got))
	b, err := os.ReadFile(githubDir + "webhooks/" + real)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &want))
	if ev.Action != "" {
		assert.Equal(t, ev.Action, got["action"])
	}
	for k := range want {
		if !slices.Contains(omittedTopKeys, k) {
			assert.Containsf(t, got, k, "top-level key %q", k)
		}
	}
	for _, m := range mainObjects {
		wantObj, ok := want[m].(map[string]any)
		if !ok {
			continue
		}
		gotObj, ok := got[m].(map[string]any)
		require.Truef(t, ok, "%s is an object", m)
		for k := range wantObj {
			assert.Containsf(t, gotObj, k, "%s.%s", m, k)
		}
	}
	assert.Equal(t, testRepo, dig(t, got, "repository", "full_name"))
	assert.Equal(t, "widgets", dig(t, got, "repository", "name"))
	assert.Equal(t, "acme", dig(t, got, "repository", "owner", "login"))
	assert.Equal(t, "main", dig(t, got, "repository", "default_branch"))
	assert.NotEmpty(t, dig(t, got, "sender", "login"))
}

func TestPayloadContents(t *testing.T) {
	s := widgets(t)
	head := s.PR(testRepo, 7).HeadSHA

	var p map[string]any
	decode := func(ev Event) map[string]any {
		p = nil
		require.NoError(t, json.Unmarshal(ev.Payload, &p))
		return p
	}

	p = decode(s.Review(testRepo, 7, "alice", "changes_requested", "fix"))
	assert.Equal(t, "changes_requested", dig(t, p, "review", "state"), "webhooks spell review states in lower case")
	assert.Equal(t, head, dig(t, p, "review", "commit_id"))
	assert.Equal(t, "alice", dig(t, p, "sender", "login"))
	assert.Equal(t, "2026-01-05T09:00:00Z", dig(t, p, "review", "submitted_at"), "the world's clock")

	p = decode(s.Push(testRepo, 7))
	assert.Equal(t, head, p["before"])
	assert.Equal(t, s.PR(testRepo, 7).HeadSHA, p["after"])
	assert.NotEqual(t, head, p["after"])
	head = s.PR(testRepo, 7).HeadSHA

	p = decode(s.CompleteCheck(testRepo, 7, "test", "failure", ""))
	assert.Equal(t, "test", dig(t, p, "workflow_run", "name"))
	assert.Equal(t, "failure", dig(t, p, "workflow_run", "conclusion"))
	assert.Equal(t, head, dig(t, p, "workflow_run", "head_sha"))
	assert.EqualValues(t, 7, dig(t, p, "workflow_run", "pull_requests", 0, "number"))
	assert.Equal(t, "feat/login", dig(t, p, "workflow_run", "pull_requests", 0, "head", "ref"))
	assert.Equal(t, "main", dig(t, p, "workflow_run", "pull_requests", 0, "base", "ref"))

	p = decode(s.CompleteCheck(testRepo, 7, "lint", "success", "octo-lint"))
	assert.Equal(t, "octo-lint", dig(t, p, "check_suite", "app", "slug"))
	assert.Equal(t, head, dig(t, p, "check_suite", "head_sha"))

	p = decode(s.SetStatus(testRepo, 7, "ci/lint", "failure"))
	assert.Equal(t, head, p["sha"])
	assert.Equal(t, "failure", p["state"])
	assert.Equal(t, "feat/login", dig(t, p, "branches", 0, "name"))

	ev, id := s.Comment(testRepo, 7, "bob", "/pipeline retry")
	p = decode(ev)
	assert.EqualValues(t, id, dig(t, p, "comment", "id"))
	assert.NotNil(t, dig(t, p, "issue", "pull_request"), "a comment on a PR says so")

	s.OpenIssue(testRepo, IssueOptions{Number: 12, Author: "dev"})
	ev, _ = s.Comment(testRepo, 12, "bob", "hi")
	p = decode(ev)
	assert.Nil(t, dig(t, p, "issue", "pull_request"))

	p = decode(s.ClosePR(testRepo, 7))
	assert.Equal(t, false, dig(t, p, "pull_request", "merged"))
	assert.Equal(t, "closed", dig(t, p, "pull_request", "state"))

	ev = s.Label(testRepo, 12, "bug", true)
	assert.Equal(t, "issues", ev.Name)
}
