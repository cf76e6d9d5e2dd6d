package ghfake

import (
	"net/http"
	"reflect"
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

// TestSchemaSubsetServesAdapter runs the adapter's queries (ghapi.Queries) through githubv4
// against a fake that has only the embedded subset (newT fails the test on any document the
// subset rejects).
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

	q := play(t, gh, adapterQuery("facts"), subjectVars("pr", 7, "index/03.json"))
	assertStateRead(t, s, q, pushed)
	assertIndexRead(t, gh)
	assertConfigRead(t, gh, q, merge)
	// The config's directory changed last with merge.yaml: when the config last changed.
	require.Len(t, field(t, q, "Repository.DefaultBranchRef.Target.Commit.ConfigDirLog.Nodes"), 1)
	assert.NotZero(t, field(t, q, "Repository.DefaultBranchRef.Target.Commit.ConfigDirLog.Nodes[0].CommittedDate"))
	assertPRRead(t, gh, q)
}

// assertStateRead checks the viewer, the repository and the state branch as the facts
// query q read them; pushed is the state branch's head.
func assertStateRead(t *testing.T, s *Server, q any, pushed string) {
	t.Helper()
	assert.Equal(t, "github-actions[bot]", field(t, q, "Viewer.Login"))
	assert.Equal(t, world.NodeID("Repository", s.Repos[testRepo].ID), field(t, q, "Repository.Id"))
	require.NotNil(t, field(t, q, "Repository.DefaultBranchRef.Target"))
	assert.Equal(t, s.Repos[testRepo].Branches["main"].Head, field(t, q, "Repository.DefaultBranchRef.Target.Oid"))
	sr := field(t, q, "Repository.StateRef")
	require.NotNil(t, field(t, sr, "Target"))
	assert.Equal(t, pushed, field(t, sr, "Target.Oid"))
	assert.Equal(t, "{}\n", field(t, sr, "Target.Commit.File.Object.Blob.Text"))
	require.NotNil(t, field(t, sr, "Target.Commit.Outputs.Object"), "a directory read by its path")
	entries := field(t, sr, "Target.Commit.Outputs.Object.Tree.Entries")
	require.Len(t, entries, 1)
	assert.Equal(t, "ab.json", field(t, sr, "Target.Commit.Outputs.Object.Tree.Entries[0].Name"))
	assert.Equal(t, "{\"a\":1}\n", field(t, sr, "Target.Commit.Outputs.Object.Tree.Entries[0].Object.Blob.Text"))
	require.Len(t, field(t, sr, "Target.Commit.FileLog.Nodes"), 1)
	last := field(t, sr, "Target.Commit.FileLog.Nodes[0]")
	assert.Equal(t, pushed, field(t, last, "Oid"))
	assert.Equal(t, "alice", field(t, last, "Author.User.Login"))
	assert.Nil(t, field(t, last, "Signature"), "a push is not signed")
	assert.Nil(t, field(t, sr, "Target.Commit.Index"))
	assert.Nil(t, field(t, sr, "Target.Commit.Shard"))
	assert.Empty(t, field(t, sr, "Target.Commit.ShardLog.Nodes"))
}

// assertIndexRead runs the adapter's index query on a state branch without an index.
func assertIndexRead(t *testing.T, gh *githubv4.Client) {
	t.Helper()
	ix := play(t, gh, adapterQuery("index"), nil)
	require.NotNil(t, field(t, ix, "Repository.StateRef"))
	assert.Nil(t, field(t, ix, "Repository.StateRef.Target.Commit.Index"))
	assert.Nil(t, field(t, ix, "Repository.StateRef.Target.Commit.Shard0"))
}

// assertConfigRead checks the config file and directory as q read them, and reads them
// again by their object ids; merge is the blob of the directory's one file.
func assertConfigRead(t *testing.T, gh *githubv4.Client, q any, merge string) {
	t.Helper()
	assert.Equal(t, "version: 1\n", field(t, q, "Repository.Config.Blob.Text"))
	require.Len(t, field(t, q, "Repository.ConfigDir.Tree.Entries"), 1)
	entry := field(t, q, "Repository.ConfigDir.Tree.Entries[0]")
	assert.Equal(t, "merge.yaml", field(t, entry, "Name"))
	assert.Equal(t, "blob", field(t, entry, "Type"))
	assert.Equal(t, merge, field(t, entry, "Object.Blob.Oid"))
	assert.Equal(t, "pipelines: {}\n", field(t, entry, "Object.Blob.Text"))

	byID := play(t, gh, adapterQuery("configByID"), map[string]any{
		"file":     githubv4.GitObjectID(field(t, q, "Repository.Config.Blob.Oid").(string)),
		"dir":      githubv4.GitObjectID(field(t, q, "Repository.ConfigDir.Tree.Oid").(string)),
		"filePath": githubv4.String(".github/pipelines.yaml"), "dirPath": githubv4.String(".github/pipelines"),
	})
	assert.Equal(t, "version: 1\n", field(t, byID, "Repository.File.Blob.Text"))
	assert.Equal(t, field(t, q, "Repository.ConfigDir.Tree"), field(t, byID, "Repository.Dir.Tree"))
	versions := field(t, byID, "Repository.DefaultBranchRef.Target.Commit")
	require.Len(t, field(t, versions, "FileVersions.Nodes"), 1)
	assert.Equal(t, field(t, q, "Repository.Config.Blob.Oid"), field(t, versions, "FileVersions.Nodes[0].File.Oid"))
	require.Len(t, field(t, versions, "DirVersions.Nodes"), 1)
	assert.Equal(t, field(t, q, "Repository.ConfigDir.Tree.Oid"), field(t, versions, "DirVersions.Nodes[0].File.Oid"))
}

// assertPRRead checks pull request #7 as q read it, and finds it from its head commit.
func assertPRRead(t *testing.T, gh *githubv4.Client, q any) {
	t.Helper()
	pr := field(t, q, "Repository.PullRequest")
	require.NotNil(t, pr)
	assert.Equal(t, "OPEN", field(t, pr, "State"))
	require.Len(t, field(t, pr, "Reviews.Nodes"), 1)
	assert.Equal(t, "APPROVED", field(t, pr, "Reviews.Nodes[0].State"))
	rollup := field(t, pr, "Commits.Nodes[0].Commit.StatusCheckRollup")
	require.NotNil(t, rollup)
	require.Len(t, field(t, rollup, "Contexts.Nodes"), 2)
	assert.Equal(t, "test", field(t, rollup, "Contexts.Nodes[0].CheckRun.Name"))
	assert.Equal(t, "ci/lint", field(t, rollup, "Contexts.Nodes[1].StatusContext.Context"))
	require.Len(t, field(t, pr, "Comments.Nodes"), 1)
	id := reflect.ValueOf(field(t, pr, "Comments.Nodes[0].FullDatabaseId")).Int()
	assert.Greater(t, id, int64(1)<<32, "comment ids above 2^32")

	c := play(t, gh, adapterQuery("commitPRs"), map[string]any{
		"sha": githubv4.GitObjectID(field(t, pr, "HeadRefOid").(string)), "branch": (*githubv4.String)(nil), "first": githubv4.Int(50),
	})
	require.NotNil(t, field(t, c, "Repository.Object"))
	assert.Equal(t, 7, field(t, c, "Repository.Object.Commit.AssociatedPullRequests.Nodes[0].Number"))
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
	// The merge queue: #7 is queued for dequeuePullRequest, which runs before enqueuePullRequest
	// queues it again; a required check keeps the queue from merging it.
	if r.Settings.Protection == nil {
		r.Settings.Protection = map[string]*world.Protection{}
	}
	r.Settings.Protection["main"] = &world.Protection{MergeQueue: true, RequiredChecks: []string{"test"}}
	_, why := s.Enqueue(pr, BotLogin, "")
	require.Empty(t, why)
	args := map[string]map[string]any{
		"createCommitOnBranch": {
			"branch":          map[string]any{"repositoryNameWithOwner": testRepo, "branchName": "main"},
			"expectedHeadOid": r.Branches["main"].Head,
			"message":         map[string]any{"headline": "m"},
		},
		"createRef":          {"repositoryId": world.NodeID("Repository", r.ID), "name": "refs/heads/new", "oid": r.Branches["main"].Head},
		"deleteRef":          {"refId": world.RefNodeID(r, "new")}, // the branch createRef makes before
		"addComment":         {"subjectId": world.NodeID("PullRequest", pr.ID), "body": "y"},
		"updateIssueComment": {"id": world.NodeID("IssueComment", c.ID), "body": "z"},
		"dequeuePullRequest": {"id": world.NodeID("PullRequest", pr.ID)},
		"enqueuePullRequest": {"pullRequestId": world.NodeID("PullRequest", pr.ID)},
		// createCommitOnBranch, before it, leaves #7 behind main.
		"updatePullRequestBranch": {"pullRequestId": world.NodeID("PullRequest", pr.ID), "updateMethod": "REBASE"},
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
