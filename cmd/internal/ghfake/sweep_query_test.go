package ghfake

import (
	"context"
	"net/http"
	"testing"

	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// adapterSweepQuery is a copy of ghapi's sweepQuery (TestSweepQueryCopied keeps them equal).
type adapterSweepQuery struct {
	Viewer     adapterActor
	Repository struct {
		DefaultBranchRef *struct{ Name string }
		Config           *struct {
			Blob adapterBlobFields `graphql:"... on Blob"`
		} `graphql:"config: object(expression: $configExpr)"`
		ConfigDir *struct {
			Tree adapterTreeFields `graphql:"... on Tree"`
		} `graphql:"configDir: object(expression: $configDirExpr)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

func TestSweepQueryCopied(t *testing.T) {
	orig := typeSpecs(t, "../ghapi/sweep.go", "")
	copied := typeSpecs(t, "sweep_query_test.go", "adapter")
	require.Contains(t, orig, "sweepQuery")
	assert.Equal(t, orig["sweepQuery"], copied["sweepQuery"], "copy ghapi's sweepQuery here as adapterSweepQuery")
}

// The sweep's one query (sweepQuery, with the index read as OpenRuns reads it) runs against
// a fake that has only the embedded subset of the schema.
func TestSchemaSubsetServesSweep(t *testing.T) {
	s := subsetWorld(t)
	gh := githubv4.NewEnterpriseClient(s.URL+"/api/graphql", &http.Client{Transport: tokenTransport{s.BotToken()}})
	pushed, err := s.PushCommit(testRepo, "pipeline-action/state", GitPush{Pusher: "alice", Files: map[string]string{"index/00.json": "{\"version\":1,\"runs\":[]}\n"}})
	require.NoError(t, err)
	var q adapterSweepQuery
	require.NoError(t, gh.Query(context.Background(), &q, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"configExpr": githubv4.String("main:.github/pipelines.yaml"), "configDirExpr": githubv4.String("main:.github/pipelines"),
	}))
	assert.Equal(t, "github-actions[bot]", q.Viewer.Login)
	require.NotNil(t, q.Repository.DefaultBranchRef)
	assert.Equal(t, "main", q.Repository.DefaultBranchRef.Name)
	require.NotNil(t, q.Repository.Config)
	assert.Equal(t, "version: 1\n", *q.Repository.Config.Blob.Text)
	var ix adapterIndexQuery
	require.NoError(t, gh.Query(context.Background(), &ix, map[string]any{
		"owner": githubv4.String("acme"), "name": githubv4.String("widgets"),
		"stateRef": githubv4.String("refs/heads/pipeline-action/state"), "stateIndex": githubv4.String("index.json"),
		"shard0": githubv4.String("index/00.json"),
	}))
	sr := ix.Repository.StateRef
	require.NotNil(t, sr)
	require.NotNil(t, sr.Target)
	assert.Equal(t, pushed, sr.Target.Oid)
	assert.Nil(t, sr.Target.Commit.Index)
	require.NotNil(t, sr.Target.Commit.Shard0)
	assert.Equal(t, "{\"version\":1,\"runs\":[]}\n", *sr.Target.Commit.Shard0.Object.Blob.Text)
	require.Len(t, sr.Target.Commit.Shard0Log.Nodes, 1)
	assert.Nil(t, sr.Target.Commit.Shard0Log.Nodes[0].Signature, "a push is not signed: the sweep does not trust it")
}
