package ghfake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/gqlexec"
)

const (
	testRepo  = "acme/widgets"
	githubDir = "../../../testdata/github/"
)

var testClock = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// tokenTransport authenticates requests with a bearer token.
type tokenTransport struct{ token string }

func (t tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return http.DefaultTransport.RoundTrip(r)
}

// client is a go-github client for the fake, authenticated with token.
func client(t testing.TB, s *Server, token string) *github.Client {
	t.Helper()
	c, err := github.NewClient(&http.Client{Transport: tokenTransport{token}}).
		WithEnterpriseURLs(s.URL+"/api/v3/", s.URL+"/api/uploads/")
	require.NoError(t, err)
	return c
}

// newT starts a fake that closes when t ends and fails t on any unexpected request; the
// package's own tests cannot import faketest, which imports this package.
func newT(t testing.TB) *Server {
	t.Helper()
	s := New()
	t.Cleanup(func() {
		if u := s.Unexpected(); len(u) > 0 {
			t.Errorf("ghfake: %d unexpected request(s):\n  %s", len(u), strings.Join(u, "\n  "))
		}
		s.Close()
	})
	return s
}

// widgets is a fake with acme/widgets, a config file, users and PR #7 by dev.
func widgets(t testing.TB) *Server {
	t.Helper()
	s := newT(t)
	s.SetClock(func() time.Time { return testClock })
	s.AddRepo(testRepo, "main")
	s.SetFile(testRepo, "main", ".github/pipelines.yaml", "version: 1\n")
	s.AddUser("alice", "write")
	s.AddUser("bob", "admin")
	s.AddUser("mallory", "read")
	s.OpenPR(testRepo, PROptions{Number: 7, Author: "dev", Head: "feat/login", Title: "Add login",
		Files: []string{"src/auth/login.go"}, Labels: []string{"security"}})
	return s
}

// gql posts a GraphQL document as githubv4 does and returns the decoded response.
// widgetsAsBot is widgets with a REST client of the action's identity.
func widgetsAsBot(t testing.TB) (*Server, *github.Client) {
	t.Helper()
	s := widgets(t)
	return s, client(t, s, s.BotToken())
}

func gql(t testing.TB, s *Server, token, query string, vars map[string]any) map[string]any {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/api/graphql", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	subsetAccepts(t, s, query, out)
	return out
}

// subsetAccepts checks that a document GitHub's schema accepts, and that the fake answered without
// meeting a field it does not implement, validates against the embedded subset too.
func subsetAccepts(t testing.TB, s *Server, query string, out map[string]any) {
	t.Helper()
	if _, from, _ := s.graphQLSchema(); from == subsetName {
		return // the server itself validated against the subset
	}
	errs, _ := out["errors"].([]any)
	for _, e := range errs {
		if m, _ := e.(map[string]any); m["type"] == "GHFAKE_NOT_IMPLEMENTED" {
			return
		}
	}
	full, _, err := loadSchema()
	if err != nil {
		return
	}
	if _, errs := gqlexec.ParseAndValidate(full, query); len(errs) > 0 {
		return
	}
	sub, err := loadSubset()
	if err != nil {
		t.Errorf("%v", err)
		return
	}
	if _, errs := gqlexec.ParseAndValidate(sub, query); len(errs) > 0 {
		t.Errorf("the fake served a document its schema subset rejects: %v\n%s", errs, query)
	}
}

// dig walks a decoded JSON value by keys and indexes.
func dig(t testing.TB, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			require.Truef(t, ok, "at %q: %T is not an object", k, v)
			v = m[k]
		case int:
			l, ok := v.([]any)
			require.Truef(t, ok, "at %d: %T is not a list", k, v)
			require.Less(t, k, len(l))
			v = l[k]
		}
	}
	return v
}

// expectUnexpected drains the unexpected requests a test provoked on purpose, so newT's check
// passes, and returns them.
func expectUnexpected(s *Server) []string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	u := s.unexpected
	s.unexpected = nil
	return u
}

func ghComment(body string) *github.IssueComment {
	return &github.IssueComment{Body: github.String(body)}
}
