package ghfake

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/graphql"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gqlast "github.com/vektah/gqlparser/v2/ast"
)

// useSchema makes s validate and execute GraphQL against sch (from names it) instead of
// loadSchema's. Call it before the first request.
func (s *Server) useSchema(sch *gqlast.Schema, from string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.schema, s.schemaFrom = sch, from
}

// subsetWorld is world with the fake forced onto the embedded subset, as in a built binary run
// outside a checkout of the project.
func subsetWorld(t *testing.T) *Server {
	t.Helper()
	sub, err := loadSubset()
	require.NoError(t, err)
	s := widgets(t)
	s.useSchema(sub, subsetName)
	return s
}

// TestSchemaSubsetServesAdapter runs the adapter's queries through githubv4 against a fake that
// has only the embedded subset (newT fails the test on any document the subset rejects).
func TestSchemaSubsetServesAdapter(t *testing.T) {
	s := subsetWorld(t)
	s.Review(testRepo, 7, "alice", "approved", "")
	s.CompleteCheck(testRepo, 7, "test", "success", "")
	s.SetStatus(testRepo, 7, "ci/lint", "pending")
	s.Comment(testRepo, 7, "alice", "/pipeline status")
	merge := s.SetFile(testRepo, "main", ".github/pipelines/merge.yaml", "pipelines: {}\n")
	gh := githubv4.NewEnterpriseClient(s.URL+"/api/graphql", &http.Client{Transport: tokenTransport{s.BotToken()}})

	pushed, err := s.PushCommit(testRepo, "pipeline-action/state", GitPush{Pusher: "alice", Files: map[string]string{"pr-7.json": "{}\n", "outputs/pr-7/ab.json": "{\"a\":1}\n"}})
	require.NoError(t, err)

	var q adapterFactsQuery
	require.NoError(t, gh.Query(context.Background(), &q, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"number": githubv4.Int(7), "configExpr": githubv4.String("main:.github/pipelines.yaml"),
		"configDirExpr": githubv4.String("main:.github/pipelines"),
		"configPath":    githubv4.String(".github/pipelines.yaml"), "configDirPath": githubv4.String(".github/pipelines"),
		"stateRef": githubv4.String("refs/heads/pipeline-action/state"), "stateFile": githubv4.String("pr-7.json"),
		"stateIndex": githubv4.String("index.json"), "stateShard": githubv4.String("index/03.json"), "stateOutputs": githubv4.String("outputs/pr-7"),
	}))
	assertStateRead(t, s, q, pushed)
	assertIndexRead(t, gh)
	assertConfigRead(t, gh, q, merge)
	// The config's directory changed last with merge.yaml: when the config last changed.
	require.Len(t, q.Repository.DefaultBranchRef.Target.Commit.ConfigDirLog.Nodes, 1)
	assert.False(t, q.Repository.DefaultBranchRef.Target.Commit.ConfigDirLog.Nodes[0].CommittedDate.IsZero())
	assertPRRead(t, gh, q)
}

// assertStateRead checks the viewer, the repository and the state branch as the facts
// query q read them; pushed is the state branch's head.
func assertStateRead(t *testing.T, s *Server, q adapterFactsQuery, pushed string) {
	t.Helper()
	assert.Equal(t, "github-actions[bot]", q.Viewer.Login)
	assert.Equal(t, world.NodeID("Repository", s.Repos[testRepo].ID), q.Repository.Id)
	require.NotNil(t, q.Repository.DefaultBranchRef.Target)
	assert.Equal(t, s.Repos[testRepo].Branches["main"].Head, q.Repository.DefaultBranchRef.Target.Oid)
	sr := q.Repository.StateRef
	require.NotNil(t, sr)
	require.NotNil(t, sr.Target)
	assert.Equal(t, pushed, sr.Target.Oid)
	require.NotNil(t, sr.Target.Commit.File)
	assert.Equal(t, "{}\n", *sr.Target.Commit.File.Object.Blob.Text)
	require.NotNil(t, sr.Target.Commit.Outputs, "a directory read by its path")
	require.NotNil(t, sr.Target.Commit.Outputs.Object)
	entries := sr.Target.Commit.Outputs.Object.Tree.Entries
	require.Len(t, entries, 1)
	assert.Equal(t, "ab.json", entries[0].Name)
	assert.Equal(t, "{\"a\":1}\n", *entries[0].Object.Blob.Text)
	require.Len(t, sr.Target.Commit.FileLog.Nodes, 1)
	last := sr.Target.Commit.FileLog.Nodes[0]
	assert.Equal(t, pushed, last.Oid)
	require.NotNil(t, last.Author.User)
	assert.Equal(t, "alice", last.Author.User.Login)
	assert.Nil(t, last.Signature, "a push is not signed")
	assert.Nil(t, sr.Target.Commit.Index)
	assert.Nil(t, sr.Target.Commit.Shard)
	assert.Empty(t, sr.Target.Commit.ShardLog.Nodes)

}

// assertIndexRead runs the adapter's index query on a state branch without an index.
func assertIndexRead(t *testing.T, gh *githubv4.Client) {
	t.Helper()
	var ix adapterIndexQuery
	require.NoError(t, gh.Query(context.Background(), &ix, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"stateRef": githubv4.String("refs/heads/pipeline-action/state"), "stateIndex": githubv4.String("index.json"),
		"shard0": githubv4.String("index/00.json"),
	}))
	require.NotNil(t, ix.Repository.StateRef)
	assert.Nil(t, ix.Repository.StateRef.Target.Commit.Index)
	assert.Nil(t, ix.Repository.StateRef.Target.Commit.Shard0)
}

// assertConfigRead checks the config file and directory as q read them, and reads them
// again by their object ids; merge is the blob of the directory's one file.
func assertConfigRead(t *testing.T, gh *githubv4.Client, q adapterFactsQuery, merge string) {
	t.Helper()
	require.NotNil(t, q.Repository.Config)
	assert.Equal(t, "version: 1\n", *q.Repository.Config.Blob.Text)
	require.NotNil(t, q.Repository.ConfigDir)
	require.Len(t, q.Repository.ConfigDir.Tree.Entries, 1)
	entry := q.Repository.ConfigDir.Tree.Entries[0]
	assert.Equal(t, "merge.yaml", entry.Name)
	assert.Equal(t, "blob", entry.Type)
	require.NotNil(t, entry.Object)
	assert.Equal(t, merge, entry.Object.Blob.Oid)
	assert.Equal(t, "pipelines: {}\n", *entry.Object.Blob.Text)

	var byID adapterConfigByIDQuery
	require.NoError(t, gh.Query(context.Background(), &byID, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"file": githubv4.GitObjectID(q.Repository.Config.Blob.Oid), "dir": githubv4.GitObjectID(q.Repository.ConfigDir.Tree.Oid),
		"filePath": githubv4.String(".github/pipelines.yaml"), "dirPath": githubv4.String(".github/pipelines"),
	}))
	require.NotNil(t, byID.Repository.File)
	assert.Equal(t, "version: 1\n", *byID.Repository.File.Blob.Text)
	require.NotNil(t, byID.Repository.Dir)
	assert.Equal(t, q.Repository.ConfigDir.Tree, byID.Repository.Dir.Tree)
	require.NotNil(t, byID.Repository.DefaultBranchRef)
	versions := byID.Repository.DefaultBranchRef.Target.Commit
	require.Len(t, versions.FileVersions.Nodes, 1)
	assert.Equal(t, q.Repository.Config.Blob.Oid, versions.FileVersions.Nodes[0].File.Oid)
	require.Len(t, versions.DirVersions.Nodes, 1)
	assert.Equal(t, q.Repository.ConfigDir.Tree.Oid, versions.DirVersions.Nodes[0].File.Oid)
}

// assertPRRead checks pull request #7 as q read it, and finds it from its head commit.
func assertPRRead(t *testing.T, gh *githubv4.Client, q adapterFactsQuery) {
	t.Helper()
	pr := q.Repository.PullRequest
	require.NotNil(t, pr)
	assert.Equal(t, "OPEN", pr.State)
	require.Len(t, pr.Reviews.Nodes, 1)
	assert.Equal(t, "APPROVED", pr.Reviews.Nodes[0].State)
	rollup := pr.Commits.Nodes[0].Commit.StatusCheckRollup
	require.NotNil(t, rollup)
	require.Len(t, rollup.Contexts.Nodes, 2)
	assert.Equal(t, "test", rollup.Contexts.Nodes[0].CheckRun.Name)
	assert.Equal(t, "ci/lint", rollup.Contexts.Nodes[1].StatusContext.Context)
	require.Len(t, pr.Comments.Nodes, 1)
	assert.Greater(t, int64(pr.Comments.Nodes[0].FullDatabaseId), int64(1)<<32, "comment ids above 2^32")

	var c adapterCommitPRsQuery
	require.NoError(t, gh.Query(context.Background(), &c, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"sha": githubv4.GitObjectID(pr.HeadRefOid), "branch": (*githubv4.String)(nil), "first": githubv4.Int(50),
	}))
	require.NotNil(t, c.Repository.Object)
	assert.Equal(t, 7, c.Repository.Object.Commit.AssociatedPullRequests.Nodes[0].Number)
}

// TestSchemaSubsetServesOwnQueries runs the package's own documents against the subset.
func TestSchemaSubsetServesOwnQueries(t *testing.T) {
	s := subsetWorld(t)
	s.Review(testRepo, 7, "alice", "approved", "")
	out := gql(t, s, s.BotToken(), factsQuery, factsVars())
	require.Nil(t, out["errors"])
	assert.Equal(t, "APPROVED", dig(t, out, "data", "repository", "pullRequest", "reviews", "nodes", 0, "state"))

	out = gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { ref(qualifiedName: "refs/heads/main") { target { oid } } } }`, nil)
	head := dig(t, out, "data", "repository", "ref", "target", "oid")
	out = gql(t, s, s.BotToken(), commitMutation, map[string]any{"input": map[string]any{
		"branch":          map[string]any{"repositoryNameWithOwner": testRepo, "branchName": "main"},
		"expectedHeadOid": head,
		"message":         map[string]any{"headline": "state"},
		"fileChanges":     map[string]any{"deletions": []any{map[string]any{"path": ".github/pipelines.yaml"}}},
	}})
	require.Nil(t, out["errors"])

	s.OpenIssue(testRepo, IssueOptions{Number: 8, Author: "alice", Title: "Bug"})
	out = gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") {
	  issueOrPullRequest(number: 8) { __typename ... on PullRequest { number } ... on Issue { title } } } }`, nil)
	require.Nil(t, out["errors"])
	assert.Equal(t, "Bug", dig(t, out, "data", "repository", "issueOrPullRequest", "title"))

	_, id := s.Comment(testRepo, 7, "alice", "hello")
	out = gql(t, s, s.BotToken(), `query($id: ID!) { node(id: $id) { ... on Comment { body author { login } } ... on Labelable { labels(first: 1) { totalCount } } } }`,
		map[string]any{"id": world.NodeID("IssueComment", id)})
	require.Nil(t, out["errors"], "fragments on interfaces the fake serves")
	assert.Equal(t, "hello", dig(t, out, "data", "node", "body"))

	// An id that names nothing is an error, as GitHub answers it, and node is null.
	out = gql(t, s, s.BotToken(), `{ node(id: "x") { ... on Comment { body } } }`, nil)
	assert.Equal(t, "Could not resolve to a node with the global id of 'x'", dig(t, out, "errors", 0, "message"))
	assert.Nil(t, dig(t, out, "data", "node"))
}

// TestSchemaSubsetRefusal: a field the fake does not implement fails validation under the subset,
// and the unexpected request says which schema refused it.
func TestSchemaSubsetRefusal(t *testing.T) {
	s := subsetWorld(t)
	out := gql(t, s, s.BotToken(), `{ viewer { bio } }`, nil)
	assert.Contains(t, dig(t, out, "errors", 0, "message"), `Cannot query field "bio" on type "User"`)
	u := expectUnexpected(s)
	require.Len(t, u, 1)
	assert.Contains(t, u[0], "embedded schema_subset.graphql")
}

// TestPayloadFields holds each mutation's payload to the keys graphql.PayloadFields lists.
func TestPayloadFields(t *testing.T) {
	s := widgets(t)
	sub, err := loadSubset()
	require.NoError(t, err)
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.Repos[testRepo]
	pr := r.Issues[7]
	c := s.AddComment(r, pr, BotLogin, "x")
	args := map[string]map[string]any{
		"createCommitOnBranch": {
			"branch":          map[string]any{"repositoryNameWithOwner": testRepo, "branchName": "main"},
			"expectedHeadOid": r.Branches["main"].Head,
			"message":         map[string]any{"headline": "m"},
		},
		"createRef":          {"repositoryId": world.NodeID("Repository", r.ID), "name": "refs/heads/new", "oid": r.Branches["main"].Head},
		"deleteRef":          {"refId": world.RefNodeID(r, "feat/login")},
		"addComment":         {"subjectId": world.NodeID("PullRequest", pr.ID), "body": "y"},
		"updateIssueComment": {"id": world.NodeID("IssueComment", c.ID), "body": "z"},
	}
	var mutations []string
	for _, k := range graphql.Fields() {
		if name, ok := strings.CutPrefix(k, "Mutation."); ok {
			mutations = append(mutations, name)
		}
	}
	require.Len(t, mutations, len(graphql.PayloadFields), "every mutation has its payload listed")
	for _, m := range mutations {
		require.Contains(t, args, m, "TestPayloadFields needs an input for %s", m)
		got, err := s.graphql.Mutate(sub, BotLogin, m, args[m])
		require.NoError(t, err, m)
		var keys []string
		for k := range got.(obj) {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		payload := sub.Mutation.Fields.ForName(m).Type.Name()
		assert.Equal(t, graphql.PayloadFields[payload], keys, "%s returns %s", m, payload)
	}
}

// TestAdapterQueriesCopied keeps the adapter structs above equal to cmd/internal/ghapi/facts.go's
// and config.go's.
func TestAdapterQueriesCopied(t *testing.T) {
	orig := typeSpecs(t, "../ghapi/facts.go", "")
	for _, f := range []string{"../ghapi/config.go", "../ghapi/statebranch.go", "../ghapi/contributors.go", "../ghapi/pages_more.go", "../ghapi/commit_prs.go", "../ghapi/query_repo.go"} {
		for k, v := range typeSpecs(t, f, "") {
			orig[k] = v
		}
	}
	copied := typeSpecs(t, "schema_subset_adapter_test.go", "adapter")
	for _, name := range []string{"actor", "checkContext", "prFields", "pageForward", "pageBackward", "labelNode", "reviewNode", "commentNode", "timelineNode", "factsQuery", "commitPRsQuery", "contributorsConn", "contributorNode", "closingRefs", "signatureNode", "gitActorNode",
		"blobFields", "treeEntryNode", "treeFields", "fileVersions", "dirVersions", "configByIDQuery",
		"stateCommit", "stateFile", "stateRef", "inRepo"} {
		require.Contains(t, orig, name)
		assert.Equal(t, orig[name], copied[name], "type %s differs from ghapi's: copy it here as adapter%s%s", name, strings.ToUpper(name[:1]), name[1:])
	}
}

// typeSpecs prints the type declarations of a Go file by name; with prefix, only those named
// prefix+Name, keyed and printed as name with prefix dropped (the first letter lower-cased).
func typeSpecs(t *testing.T, path, prefix string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	require.NoError(t, err)
	rename := func(n string) string {
		if prefix == "" {
			return n
		}
		n, ok := strings.CutPrefix(n, prefix)
		if !ok || n == "" {
			return ""
		}
		return strings.ToLower(n[:1]) + n[1:]
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, sp := range g.Specs {
			ts := sp.(*ast.TypeSpec)
			name := rename(ts.Name.Name)
			if name == "" {
				continue
			}
			ast.Inspect(ts.Type, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if r := rename(id.Name); r != "" && prefix != "" {
						id.Name = r
					}
				}
				return true
			})
			var buf bytes.Buffer
			require.NoError(t, printer.Fprint(&buf, token.NewFileSet(), ts.Type))
			out[name] = buf.String()
		}
	}
	return out
}
