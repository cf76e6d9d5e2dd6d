package ghfake

import (
	"net/http"
	"testing"

	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sweep's one query (sweepQuery, with the index read as OpenRuns reads it) runs against
// a fake that has only the embedded subset of the schema.
func TestSchemaSubsetServesSweep(t *testing.T) {
	s := subsetWorld(t)
	gh := githubv4.NewEnterpriseClient(s.URL+"/api/graphql", &http.Client{Transport: tokenTransport{s.BotToken()}})
	pushed, err := s.PushCommit(testRepo, "pipeline-action/state", GitPush{Pusher: "alice", Files: map[string]string{"index/00.json": "{\"version\":1,\"runs\":[]}\n"}})
	require.NoError(t, err)
	q := play(t, gh, adapterQuery("sweep"), map[string]any{
		"configExpr": githubv4.String("main:.github/pipelines.yaml"), "configDirExpr": githubv4.String("main:.github/pipelines"),
	})
	assert.Equal(t, "github-actions[bot]", field(t, q, "Viewer.Login"))
	assert.Equal(t, "main", field(t, q, "Repository.DefaultBranchRef.Name"))
	assert.Equal(t, "version: 1\n", field(t, q, "Repository.Config.Blob.Text"))
	sr := field(t, play(t, gh, adapterQuery("index"), nil), "Repository.StateRef")
	require.NotNil(t, field(t, sr, "Target"))
	assert.Equal(t, pushed, field(t, sr, "Target.Oid"))
	assert.Nil(t, field(t, sr, "Target.Commit.Index"))
	assert.Equal(t, "{\"version\":1,\"runs\":[]}\n", field(t, sr, "Target.Commit.Shard0.Object.Blob.Text"))
	require.Len(t, field(t, sr, "Target.Commit.Shard0Log.Nodes"), 1)
	assert.Nil(t, field(t, sr, "Target.Commit.Shard0Log.Nodes[0].Signature"), "a push is not signed: the sweep does not trust it")
}
