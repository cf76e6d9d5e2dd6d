package ghfake

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/perms"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
)

// appScopes are the repository and organization permissions of a GitHub App that the
// tables may name.
var appScopes = map[string]bool{"actions": true, "checks": true, "contents": true, "issues": true,
	"metadata": true, "pull_requests": true, "statuses": true, "members": true, "deployments": true}

// TestEveryOperationHasAPermission: every routed operation has a recorded requirement (so a
// restricted token is never let through by omission), every requirement names an operation,
// a type or field of the schema the fake serves, and scopes and access levels GitHub has.
func TestEveryOperationHasAPermission(t *testing.T) {
	ids := map[string]bool{}
	for _, op := range rest.Operations {
		ids[op.OperationID] = true
		_, ok := perms.REST[op.OperationID]
		assert.True(t, ok, "no permission recorded for %s", op.OperationID)
	}
	check := func(key string, n perms.Need) {
		for _, set := range n.Alternatives(nil) {
			for _, item := range strings.Split(set, ",") {
				scope, access, ok := strings.Cut(strings.TrimSpace(item), "=")
				assert.True(t, ok && appScopes[scope] && (access == "read" || access == "write"), "%s: %q", key, item)
			}
		}
	}
	for id, n := range perms.REST {
		assert.True(t, ids[id], "%s is not an operation of operations_table.go", id)
		check(id, n)
	}
	sch, err := loadSubset()
	require.NoError(t, err)
	for key, n := range perms.GraphQL {
		typ, field, isField := strings.Cut(key, ".")
		def := sch.Types[typ]
		require.NotNil(t, def, "%s: no such type", key)
		if isField {
			assert.NotNil(t, def.Fields.ForName(field), "%s: no such field", key)
		}
		check(key, n)
	}
}

// forbidden403 asserts err is GitHub's refusal for a missing scope, naming want.
func forbidden403(t *testing.T, err error, want string) {
	t.Helper()
	var er *github.ErrorResponse
	require.ErrorAs(t, err, &er)
	assert.Equal(t, http.StatusForbidden, er.Response.StatusCode)
	assert.Equal(t, "Resource not accessible by integration", er.Message)
	assert.Equal(t, want, er.Response.Header.Get("X-Accepted-GitHub-Permissions"))
}

// TestRESTRefusesAMissingScope: a token without a scope meets 403 with the header naming
// what the endpoint needs; one of two alternatives suffices; a plain issue is reached
// through issues only; lifting the restriction serves everything again.
func TestRESTRefusesAMissingScope(t *testing.T) {
	s := widgets(t)
	s.OpenIssue(testRepo, IssueOptions{Number: 9, Author: "dev"})
	tok := s.NewBotToken()
	c := client(t, s, tok)
	ctx := t.Context()
	s.Grant(tok, Permissions{"contents": "write", "pull_requests": "write"})

	status := &github.RepoStatus{State: github.String("success"), Context: github.String("ci/lint")}
	_, _, err := c.Repositories.CreateStatus(ctx, "acme", "widgets", "main", status)
	forbidden403(t, err, "statuses=write")
	_, err = c.Actions.CreateWorkflowDispatchEventByFileName(ctx, "acme", "widgets", "agent.yml", github.CreateWorkflowDispatchEventRequest{Ref: "main"})
	forbidden403(t, err, "actions=write")
	_, _, err = c.Teams.ListTeamMembersBySlug(ctx, "acme", "core", nil)
	forbidden403(t, err, "members=read")

	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("on the PR"))
	require.NoError(t, err, "pull_requests: write comments on a pull request")
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 9, ghComment("on the issue"))
	forbidden403(t, err, "issues=write")
	_, _, err = c.Repositories.Get(ctx, "acme", "widgets")
	require.NoError(t, err, "metadata is always readable")

	s.Grant(tok, Permissions{"contents": "read", "issues": "write"})
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 9, ghComment("on the issue"))
	require.NoError(t, err)
	_, _, err = c.Git.CreateRef(ctx, "acme", "widgets", &github.Reference{Ref: github.String("refs/heads/x"), Object: &github.GitObject{SHA: github.String(strings.Repeat("0", 40))}})
	forbidden403(t, err, "contents=write")
	_, _, err = c.PullRequests.Merge(ctx, "acme", "widgets", 7, "", nil)
	forbidden403(t, err, "contents=write")

	s.Grant(tok, Permissions{})
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("on the PR"))
	forbidden403(t, err, "issues=write; pull_requests=write")
	s.Grant(tok, nil)
	_, _, err = c.Issues.CreateComment(ctx, "acme", "widgets", 7, ghComment("on the PR"))
	require.NoError(t, err)
}

const rollupQuery = `query { repository(owner: "acme", name: "widgets") { pullRequest(number: 7) {
  commits(last: 1) { nodes { commit { statusCheckRollup { state contexts(first: 10) { nodes {
    __typename
    ... on CheckRun { name checkSuite { workflowRun { id } } }
    ... on StatusContext { context state } } } } } } } } } }`

// TestGraphQLRefusesAMissingScope reproduces GitHub's known answers: a commit status among
// statusCheckRollup's contexts needs statuses: read, a check run checks: read, and a check
// suite's workflowRun actions: read; each is null with a FORBIDDEN error at its path while
// the rest of the answer stands.
func TestGraphQLRefusesAMissingScope(t *testing.T) {
	s := widgets(t)
	s.CompleteCheck(testRepo, 7, "test", "success", "")
	s.SetStatus(testRepo, 7, "ci/lint", "success")
	tok := s.NewBotToken()
	nodes := []any{"data", "repository", "pullRequest", "commits", "nodes", 0, "commit", "statusCheckRollup", "contexts", "nodes"}
	errPath := func(out map[string]any) []string {
		var got []string
		for _, e := range out["errors"].([]any) {
			assert.Equal(t, "FORBIDDEN", dig(t, e, "type"))
			assert.Equal(t, "Resource not accessible by integration", dig(t, e, "message"))
			var parts []string
			for _, p := range dig(t, e, "path").([]any) {
				parts = append(parts, fmt.Sprint(p))
			}
			got = append(got, strings.Join(parts, "."))
		}
		return got
	}
	const at = "repository.pullRequest.commits.nodes.0.commit.statusCheckRollup.contexts.nodes."

	s.Grant(tok, Permissions{"contents": "write", "pull_requests": "write", "checks": "read", "actions": "read"})
	out := gql(t, s, tok, rollupQuery, nil)
	assert.Equal(t, []string{at + "1"}, errPath(out), "the commit status")
	ctxs := dig(t, out, nodes...).([]any)
	assert.Equal(t, "test", dig(t, ctxs[0], "name"), "the check run is read")
	assert.Nil(t, ctxs[1])

	s.Grant(tok, Permissions{"pull_requests": "read", "statuses": "read", "checks": "read"})
	out = gql(t, s, tok, rollupQuery, nil)
	assert.Equal(t, []string{at + "0.checkSuite.workflowRun"}, errPath(out))
	ctxs = dig(t, out, nodes...).([]any)
	assert.Equal(t, "ci/lint", dig(t, ctxs[1], "context"))
	assert.Nil(t, dig(t, ctxs[0], "checkSuite", "workflowRun"))

	s.Grant(tok, Permissions{"pull_requests": "read", "statuses": "read"})
	out = gql(t, s, tok, rollupQuery, nil)
	assert.Equal(t, []string{at + "0"}, errPath(out), "the check run")

	s.Grant(tok, Permissions{"pull_requests": "read", "statuses": "read", "checks": "read", "actions": "read"})
	out = gql(t, s, tok, rollupQuery, nil)
	assert.Nil(t, out["errors"])
}

// TestGraphQLMutationNeedsItsScope: createRef without contents: write is refused at its
// field, before it changes anything.
func TestGraphQLMutationNeedsItsScope(t *testing.T) {
	s := widgets(t)
	tok := s.NewBotToken()
	s.Grant(tok, Permissions{"contents": "read", "pull_requests": "write"})
	repoID := dig(t, gql(t, s, tok, `query { repository(owner: "acme", name: "widgets") { id } }`, nil), "data", "repository", "id")
	oid := dig(t, gql(t, s, tok, `query { repository(owner: "acme", name: "widgets") { defaultBranchRef { target { oid } } } }`, nil),
		"data", "repository", "defaultBranchRef", "target", "oid")
	m := `mutation($r: ID!, $o: GitObjectID!) { createRef(input: {repositoryId: $r, name: "refs/heads/x", oid: $o}) { ref { name } } }`
	out := gql(t, s, tok, m, map[string]any{"r": repoID, "o": oid})
	require.NotNil(t, out["errors"])
	assert.Equal(t, "FORBIDDEN", dig(t, out, "errors", 0, "type"))
	assert.Equal(t, []any{"createRef"}, dig(t, out, "errors", 0, "path"))
	_, _, err := client(t, s, s.BotToken()).Git.GetRef(t.Context(), "acme", "widgets", "heads/x")
	require.Error(t, err, "the branch was not made")
}
