package ghfake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/routes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// TestOperationsTableMatchesSpec keeps the compiled routing table equal to operations.json.
func TestOperationsTableMatchesSpec(t *testing.T) {
	b, err := os.ReadFile(githubDir + "rest/operations.json")
	require.NoError(t, err)
	var spec struct {
		Operations []struct {
			OperationID string                     `json:"operationId"`
			Method      string                     `json:"method"`
			Path        string                     `json:"path"`
			Responses   map[string]json.RawMessage `json:"responses"`
		} `json:"operations"`
	}
	require.NoError(t, json.Unmarshal(b, &spec))
	var want, got []string
	for _, o := range spec.Operations {
		var codes []string
		for c := range o.Responses {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		want = append(want, strings.Join([]string{o.OperationID, strings.ToUpper(o.Method), o.Path, strings.Join(codes, ",")}, " "))
	}
	for _, o := range rest.Operations {
		var codes []string
		for _, c := range o.Codes {
			codes = append(codes, strconvI(c))
		}
		sort.Strings(codes)
		got = append(got, strings.Join([]string{o.OperationID, o.Method, o.Path, strings.Join(codes, ",")}, " "))
	}
	sort.Strings(want)
	sort.Strings(got)
	assert.Equal(t, want, got)
}

func strconvI(i int) string { b, _ := json.Marshal(i); return string(b) }

// restCase provokes one documented response of an operation.
type restCase struct {
	op     string
	status int
	method string
	path   func(s *Server) string
	body   string
	setup  func(s *Server)
	twice  bool // send the request twice and check the second response
}

func fixed(p string) func(*Server) string { return func(*Server) string { return p } }

var restCases = []restCase{
	{op: "pulls/get", status: 200, method: "GET", path: fixed("/repos/acme/widgets/pulls/7")},
	{op: "pulls/merge", status: 200, method: "PUT", path: fixed("/repos/acme/widgets/pulls/7/merge"), body: `{"merge_method":"squash"}`},
	{op: "pulls/merge", status: 405, method: "PUT", path: fixed("/repos/acme/widgets/pulls/7/merge"), body: `{}`,
		setup: func(s *Server) { s.SetMergeable(testRepo, 7, "CONFLICTING") }},
	{op: "pulls/merge", status: 409, method: "PUT", path: fixed("/repos/acme/widgets/pulls/7/merge"), body: `{"sha":"1234567890123456789012345678901234567890"}`},
	{op: "pulls/update-branch", status: 202, method: "PUT", path: fixed("/repos/acme/widgets/pulls/7/update-branch"), body: `{}`,
		setup: func(s *Server) { s.SetFile(testRepo, "main", "NEWS.md", "news") }},
	{op: "pulls/list-reviews", status: 200, method: "GET", path: fixed("/repos/acme/widgets/pulls/7/reviews"),
		setup: func(s *Server) { s.Review(testRepo, 7, "alice", "approved", "") }},
	{op: "pulls/list-files", status: 200, method: "GET", path: fixed("/repos/acme/widgets/pulls/7/files")},
	{op: "issues/add-labels", status: 200, method: "POST", path: fixed("/repos/acme/widgets/issues/7/labels"), body: `["ready"]`},
	{op: "issues/set-labels", status: 200, method: "PUT", path: fixed("/repos/acme/widgets/issues/7/labels"), body: `{"labels":["ready"]}`},
	{op: "issues/remove-label", status: 200, method: "DELETE", path: fixed("/repos/acme/widgets/issues/7/labels/security"),
		setup: func(s *Server) { s.Label(testRepo, 7, "ready", true) }},
	{op: "issues/list-labels-on-issue", status: 200, method: "GET", path: fixed("/repos/acme/widgets/issues/7/labels")},
	{op: "issues/create-comment", status: 201, method: "POST", path: fixed("/repos/acme/widgets/issues/7/comments"), body: `{"body":"hi"}`},
	{op: "issues/update-comment", status: 200, method: "PATCH", path: firstComment, body: `{"body":"edited"}`, setup: aComment},
	{op: "issues/get-comment", status: 200, method: "GET", path: firstComment, setup: aComment},
	{op: "issues/list-comments", status: 200, method: "GET", path: fixed("/repos/acme/widgets/issues/7/comments"), setup: aComment},
	{op: "issues/get", status: 200, method: "GET", path: fixed("/repos/acme/widgets/issues/7")},
	{op: "repos/get", status: 200, method: "GET", path: fixed("/repos/acme/widgets")},
	{op: "repos/get-collaborator-permission-level", status: 200, method: "GET", path: fixed("/repos/acme/widgets/collaborators/alice/permission")},
	{op: "repos/list-pull-requests-associated-with-commit", status: 200, method: "GET",
		path: func(s *Server) string { return "/repos/acme/widgets/commits/" + s.PR(testRepo, 7).HeadSHA + "/pulls" }},
}

// moreRESTCases cover the operations beyond the adapter's core set.
var moreRESTCases = []restCase{
	{op: "actions/re-run-workflow-failed-jobs", status: 201, method: "POST",
		path: func(s *Server) string {
			return fmt.Sprintf("/repos/acme/widgets/actions/runs/%d/rerun-failed-jobs", s.RunOf(testRepo, 7, "ci"))
		},
		setup: func(s *Server) { s.CompleteJob(testRepo, 7, "ci", "test", "failure") }},
	{op: "pulls/list", status: 200, method: "GET", path: fixed("/repos/acme/widgets/pulls")},
	{op: "repos/get-combined-status-for-ref", status: 200, method: "GET", path: func(s *Server) string { return "/repos/acme/widgets/commits/" + s.PR(testRepo, 7).HeadSHA + "/status" },
		setup: func(s *Server) { s.SetStatus(testRepo, 7, "ci/build", "success") }},
	{op: "checks/list-for-ref", status: 200, method: "GET", path: fixed("/repos/acme/widgets/commits/main/check-runs")},
	{op: "actions/list-workflow-runs-for-repo", status: 200, method: "GET", path: fixed("/repos/acme/widgets/actions/runs")},
	{op: "actions/list-workflow-runs", status: 200, method: "GET", path: fixed("/repos/acme/widgets/actions/workflows/agent.yml/runs")},
	{op: "issues/add-assignees", status: 201, method: "POST", path: fixed("/repos/acme/widgets/issues/7/assignees"), body: `{"assignees":["alice"]}`},
	{op: "git/get-ref", status: 200, method: "GET", path: fixed("/repos/acme/widgets/git/ref/heads/feat/login")},
	{op: "git/create-ref", status: 201, method: "POST", path: fixed("/repos/acme/widgets/git/refs"),
		body: `{"ref":"refs/heads/pipeline-action/state","sha":"` + "%HEAD%" + `"}`},
	{op: "git/update-ref", status: 200, method: "PATCH", path: fixed("/repos/acme/widgets/git/refs/heads/main"), body: `{"sha":"%HEAD%"}`},
	{op: "repos/get-branch", status: 200, method: "GET", path: fixed("/repos/acme/widgets/branches/main")},
	{op: "repos/get-content", status: 200, method: "GET", path: fixed("/repos/acme/widgets/contents/.github/pipelines.yaml?ref=main")},
	{op: "repos/create-or-update-file-contents", status: 201, method: "PUT", path: fixed("/repos/acme/widgets/contents/notes/a.txt"),
		body: `{"message":"a note","content":"aGk=","branch":"main"}`},
	{op: "repos/create-or-update-file-contents", status: 200, method: "PUT", path: fixed("/repos/acme/widgets/contents/notes/b.txt"),
		body:  `{"message":"a note","content":"aGk=","branch":"main","sha":"` + world.BlobOID("before") + `"}`,
		setup: func(s *Server) { s.SetFile(testRepo, "main", "notes/b.txt", "before") }},
	{op: "actions/create-workflow-dispatch", status: 200, method: "POST", path: fixed("/repos/acme/widgets/actions/workflows/agent.yml/dispatches"),
		body:  `{"ref":"main","inputs":{"run":"r1"},"return_run_details":true}`,
		setup: func(s *Server) { s.SetFile(testRepo, "main", ".github/workflows/agent.yml", agentWorkflow) }},
	{op: "rate-limit/get", status: 200, method: "GET", path: fixed("/rate_limit")},
	{op: "issues/update", status: 200, method: "PATCH", path: fixed("/repos/acme/widgets/issues/7"), body: `{"state":"closed"}`},
	{op: "pulls/request-reviewers", status: 201, method: "POST", path: fixed("/repos/acme/widgets/pulls/7/requested_reviewers"),
		body: `{"reviewers":["alice"],"team_reviewers":["maintainers"]}`},
	{op: "reactions/create-for-issue-comment", status: 201, method: "POST", path: func(s *Server) string { return firstComment(s) + "/reactions" },
		body: `{"content":"eyes"}`, setup: aComment},
	{op: "reactions/create-for-issue-comment", status: 200, method: "POST", path: func(s *Server) string { return firstComment(s) + "/reactions" },
		body: `{"content":"eyes"}`, setup: aComment, twice: true},
	{op: "repos/create-commit-status", status: 201, method: "POST", path: func(s *Server) string { return "/repos/acme/widgets/statuses/" + s.PR(testRepo, 7).HeadSHA },
		body: `{"state":"success","context":"ci/x"}`},
	{op: "teams/list-members-in-org", status: 200, method: "GET", path: fixed("/orgs/acme/teams/maintainers/members"), setup: aTeam},
	{op: "repos/compare-commits-with-basehead", status: 200, method: "GET", path: fixed("/repos/acme/widgets/compare/main...feat/login")},
	{op: "issues/create", status: 201, method: "POST", path: fixed("/repos/acme/widgets/issues"), body: `{"title":"Follow up","body":"b","labels":["bug"]}`},
	{op: "teams/get-membership-for-user-in-org", status: 200, method: "GET", path: fixed("/orgs/acme/teams/maintainers/memberships/alice"), setup: aTeam},
	{op: "repos/get-branch-rules", status: 200, method: "GET", path: fixed("/repos/acme/widgets/rules/branches/pipeline-action%2Fstate"),
		setup: func(s *Server) { s.RestrictBranch(testRepo, "pipeline-action/state") }},
}

func aTeam(s *Server) { s.AddTeam("acme/maintainers", "alice", "bob") }

func aComment(s *Server) { s.Comment(testRepo, 7, "alice", "hello") }

func firstComment(s *Server) string {
	return "/repos/acme/widgets/issues/comments/" + strconvI(int(s.Comments(testRepo, 7)[0].ID))
}

// loadExamples reads response-examples.json: operationId → status → example name → value.
func loadExamples(t *testing.T) map[string]map[string]map[string]struct{ Value any } {
	b, err := os.ReadFile(githubDir + "rest/response-examples.json")
	require.NoError(t, err)
	var doc struct {
		Examples map[string]map[string]map[string]struct{ Value any }
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	return doc.Examples
}

// topKeys are the keys of an object, or of a list's first object.
func topKeys(t *testing.T, v any) []string {
	if l, ok := v.([]any); ok {
		require.NotEmpty(t, l, "a list to compare needs an element")
		v = l[0]
	}
	m, ok := v.(map[string]any)
	require.Truef(t, ok, "%T is not an object", v)
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// omittedKeys are example keys the fake leaves out on purpose, by operation.
var omittedKeys = map[string][]string{
	// The fake's repositories are not forks, not made from templates, and not owned by an
	// organization: GitHub sends these keys only for such repositories.
	"repos/get": {"organization", "parent", "source", "template_repository"},
	// A new issue is not a pull request; GitHub sends pull_request only for pull requests
	// (its example for creating an issue carries it anyway).
	"issues/create": {"pull_request"},
	// The fake's rulesets restrict creations and updates: GitHub's creation rule has no
	// parameters, and its update rule's one parameter is optional (the examples are of
	// pattern rules, which have them).
	"repos/get-branch-rules": {"parameters"},
}

// skippedExamples are examples of responses the fake never gives, by operation.
var skippedExamples = map[string][]string{
	// GitHub's one example of a comparison is of the patch media type (a patch's text); the
	// fake serves the JSON comparison only (TestCompareCountsAheadAndBehind checks its keys).
	"repos/compare-commits-with-basehead": {"default"},
	// The fake serves files only: no directories, symlinks or submodules.
	"repos/get-content": {"response-if-content-is-a-directory-github-object", "response-if-content-is-a-directory",
		"response-if-content-is-a-symlink", "response-if-content-is-a-submodule"},
	// GitHub's example of a rerun's answer is null: its schema is an empty object, which
	// TestRerunFailedJobs checks the fake answers.
	"actions/re-run-workflow-failed-jobs": {"default"},
}

// TestRESTResponseShapes holds every implemented operation's responses to GitHub's examples: the
// fake's top-level keys include the example's.
func TestRESTResponseShapes(t *testing.T) {
	examples := loadExamples(t)
	covered := map[string]bool{}
	for _, tc := range append(restCases, moreRESTCases...) {
		covered[tc.op+" "+strconvI(tc.status)] = true
		t.Run(tc.op+"/"+strconvI(tc.status), func(t *testing.T) {
			require.Contains(t, rest.Handlers, tc.op)
			s := widgets(t)
			if tc.setup != nil {
				tc.setup(s)
			}
			body := strings.ReplaceAll(tc.body, "%HEAD%", s.PR(testRepo, 7).HeadSHA)
			send := func() (*http.Response, []byte) {
				req, err := http.NewRequest(tc.method, s.URL+"/api/v3"+tc.path(s), strings.NewReader(body))
				require.NoError(t, err)
				req.Header.Set("Authorization", "Bearer "+s.BotToken())
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp, b
			}
			resp, b := send()
			if tc.twice {
				resp, b = send()
			}
			require.Equal(t, tc.status, resp.StatusCode, string(b))
			var got any
			require.NoError(t, json.Unmarshal(b, &got))
			exs := examples[tc.op][strconvI(tc.status)]
			require.NotEmpty(t, exs, "GitHub documents an example for this response")
			for name, ex := range exs {
				if m, ok := ex.Value.(map[string]any); ok && m["$ref"] != nil {
					continue // an unresolved reference in the extract, no keys to compare
				}
				if slices.Contains(skippedExamples[tc.op], name) {
					continue
				}
				want := topKeys(t, ex.Value)
				have := topKeys(t, got)
				for _, k := range want {
					if slices.Contains(omittedKeys[tc.op], k) {
						continue
					}
					assert.Containsf(t, have, k, "example %q has key %q", name, k)
				}
			}
		})
	}
	t.Run("every example of an implemented operation is covered", func(t *testing.T) {
		for op := range rest.Handlers {
			for status := range examples[op] {
				assert.Truef(t, covered[op+" "+status], "no shape case for %s %s", op, status)
			}
		}
	})
	t.Run("fake statuses are documented", func(t *testing.T) {
		for _, tc := range append(restCases, moreRESTCases...) {
			i := slices.IndexFunc(rest.Operations, func(o routes.Operation) bool { return o.OperationID == tc.op })
			require.GreaterOrEqual(t, i, 0)
			assert.Contains(t, rest.Operations[i].Codes, tc.status, tc.op)
		}
	})
}
