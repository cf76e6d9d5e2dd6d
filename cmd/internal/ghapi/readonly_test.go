package ghapi_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// recorder answers 200 to every request that reaches it, and keeps them.
type recorder struct{ got []string }

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	body := ""
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		body = string(b)
	}
	r.got = append(r.got, req.Method+" "+req.URL.Path+" "+body)
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("{}")), Header: http.Header{}, Request: req}, nil
}

// TestReadOnlyTransport: every write kind is refused before it reaches the transport
// below (REST POST, PATCH, PUT, DELETE; a GraphQL mutation or subscription, however it is
// hidden), and reads pass with their body intact.
func TestReadOnlyTransport(t *testing.T) {
	const gql = "https://api.github.com/graphql"
	tests := []struct {
		name, method, url, body string
		refused                 string // a piece of the refusal; "" passes
	}{
		{name: "REST GET", method: "GET", url: "https://api.github.com/repos/a/b/pulls/7"},
		{name: "REST HEAD", method: "HEAD", url: "https://api.github.com/repos/a/b"},
		{name: "REST POST", method: "POST", url: "https://api.github.com/repos/a/b/issues/7/labels", body: `["x"]`, refused: "REST write"},
		{name: "REST PATCH", method: "PATCH", url: "https://api.github.com/repos/a/b/issues/comments/1", body: `{}`, refused: "REST write"},
		{name: "REST PUT", method: "PUT", url: "https://api.github.com/repos/a/b/pulls/7/merge", body: `{}`, refused: "REST write"},
		{name: "REST DELETE", method: "DELETE", url: "https://api.github.com/repos/a/b/git/refs/heads/x", refused: "REST write"},
		{name: "GraphQL query", method: "POST", url: gql, body: `{"query":"query($n:Int!){repository(owner:\"a\",name:\"b\"){pullRequest(number:$n){title}}}","variables":{"n":7}}`},
		{name: "GraphQL shorthand query", method: "POST", url: gql, body: `{"query":"{viewer{login}}"}`},
		{name: "GraphQL query naming mutation in a string", method: "POST", url: gql, body: `{"query":"query{search(query:\"mutation\"){issueCount}} # mutation"}`},
		{name: "GraphQL query with a field named mutation", method: "POST", url: gql, body: `{"query":"query{a{mutation}}"}`},
		{name: "GraphQL mutation", method: "POST", url: gql, body: `{"query":"mutation($i:AddCommentInput!){addComment(input:$i){clientMutationId}}"}`, refused: "GraphQL mutation"},
		{name: "GraphQL mutation after a comment", method: "POST", url: gql, body: `{"query":"# a query\nmutation{deleteRef(input:{refId:\"x\"}){clientMutationId}}"}`, refused: "GraphQL mutation"},
		{name: "GraphQL mutation after a query", method: "POST", url: gql, body: `{"query":"query A{viewer{login}} mutation B{createRef(input:{}){ref{name}}}","operationName":"B"}`, refused: "GraphQL mutation"},
		{name: "GraphQL mutation behind a block string", method: "POST", url: gql, body: `{"query":"query{a(x:\"\"\"\\\"\"\" }\"\"\")} mutation{b}"}`, refused: "GraphQL mutation"},
		{name: "GraphQL subscription", method: "POST", url: gql, body: `{"query":"subscription{x}"}`, refused: "GraphQL subscription"},
		{name: "GraphQL string that does not end", method: "POST", url: gql, body: `{"query":"query{a(x:\"mutation{b}"}`, refused: "does not end"},
		{name: "GraphQL braces that do not match", method: "POST", url: gql, body: `{"query":"} mutation{b}"}`, refused: "do not match"},
		{name: "GraphQL body not JSON", method: "POST", url: gql, body: `mutation{b}`, refused: "not a JSON object"},
		{name: "GraphQL query given twice", method: "POST", url: gql, body: `{"query":"query{a}","query":"mutation{b}"}`, refused: "not a JSON object with one query"},
		{name: "GraphQL query not a string", method: "POST", url: gql, body: `{"query":["mutation{b}"]}`, refused: "not a JSON object with one query"},
		{name: "GraphQL batch", method: "POST", url: gql, body: `[{"query":"mutation{b}"}]`, refused: "not a JSON object with one query"},
		{name: "GraphQL escaped mutation", method: "POST", url: gql, body: `{"query":"\u006dutation{b}"}`, refused: "GraphQL mutation"},
		{name: "GraphQL by GET", method: "GET", url: gql + "?query=mutation{b}", refused: "REST write"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			req, err := http.NewRequest(tt.method, tt.url, body)
			require.NoError(t, err)
			resp, err := ghapi.NewReadOnlyTransport(rec).RoundTrip(req)
			if tt.refused != "" {
				var ro *ghapi.ReadOnlyError
				require.ErrorAs(t, err, &ro)
				assert.Contains(t, err.Error(), tt.refused)
				assert.Contains(t, err.Error(), tt.method)
				assert.Empty(t, rec.got, "a refused request reached the transport below")
				return
			}
			require.NoError(t, err)
			resp.Body.Close()
			require.Len(t, rec.got, 1)
			assert.Equal(t, tt.method+" "+req.URL.Path+" "+tt.body, rec.got[0], "the request passed as it was")
		})
	}
}

// TestReadOnlyClientAgainstTheFake: a read-only client reads the pull request as any
// client does, and every write it is asked for — effects, a state comment, a commit to
// the state branch, a branch — fails with a ReadOnlyError and reaches GitHub not at all,
// though its token may write.
func TestReadOnlyClientAgainstTheFake(t *testing.T) {
	ctx := t.Context()
	fake, _ := setup(t)
	fake.SetFile(repoName, "main", configPath, snapshotConfig)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/login"})
	c, err := ghapi.New(ghapi.Options{Token: fake.BotToken(), RESTURL: fake.URL + "/api/v3", GraphQLURL: fake.URL + "/api/graphql",
		Repository: repoName, ReadOnly: true})
	require.NoError(t, err)
	snap, err := c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	require.NotNil(t, snap.Facts.PR)

	effects := []model.Effect{
		{Key: "r1/a/1/add_label", Kind: model.EffectAddLabel, Number: 7, Labels: []string{"ready"}},
		{Key: "r1/a/1/remove_label", Kind: model.EffectRemoveLabel, Number: 7, Labels: []string{"wip"}},
		{Key: "r1/a/1/comment", Kind: model.EffectComment, Number: 7, Body: "hello"},
		{Key: "r1/a/1/merge_pr", Kind: model.EffectMerge, Number: 7, SHA: snap.Facts.PR.HeadSHA, Method: "squash"},
	}
	for _, e := range effects {
		o := c.Perform(ctx, e)
		assert.Contains(t, o.Err, "read-only: refused", e.Key)
	}
	_, err = c.CommitFiles(ctx, stateBranch, strings.Repeat("0", 40), []state.FileChange{{Path: "pr-7.json", Text: "{}"}}, "h", "b")
	assert.True(t, isReadOnly(err), "commit: %v", err)
	assert.True(t, isReadOnly(c.CreateBranch(ctx, "R_1", stateBranch, strings.Repeat("0", 40))), "branch")

	for _, call := range fake.Calls() {
		assert.False(t, call.Mutation || call.Kind != "graphql" && call.Method != http.MethodGet, "a write reached GitHub: %s %s", call.Method, call.Path)
	}
	assert.False(t, fake.PR(repoName, 7).Merged)
	assert.Empty(t, fake.PR(repoName, 7).Labels)
}

func isReadOnly(err error) bool {
	var ro *ghapi.ReadOnlyError
	return errors.As(err, &ro)
}
