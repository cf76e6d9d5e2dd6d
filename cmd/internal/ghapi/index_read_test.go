package ghapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// OpenRuns and the sweep read every shard and index.json in one query, each with the
// commit that last changed it; the facts query reads the subject's shard. Only the
// mutations and REST writes count as writes.
func TestIndexReadAndWrites(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, noPipelines)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	snap, err := c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	require.NoError(t, c.CreateBranch(ctx, snap.State.RepoID, stateBranch, snap.State.DefaultHead))
	writes := c.Writes()
	assert.Equal(t, 1, writes, "createRef")

	shard := state.ShardFile("pr-7.json")
	files := []state.FileChange{{Path: shard, Text: "{\"version\":1,\"runs\":[]}\n"}, {Path: "index/0f.json", Text: "{}\n"}}
	commit, err := c.CommitFiles(ctx, stateBranch, snap.State.DefaultHead, files, "m", "")
	require.NoError(t, err)
	assert.Equal(t, writes+1, c.Writes(), "createCommitOnBranch")

	calls := c.Calls()["graphql"]
	r, err := c.OpenRuns(ctx, stateBranch)
	require.NoError(t, err)
	assert.Equal(t, calls+1, c.Calls()["graphql"], "one query")
	assert.Equal(t, writes+1, c.Writes(), "a query writes nothing")
	assert.Equal(t, commit, r.Head)
	assert.Nil(t, r.Index)
	require.Len(t, r.Shards, 2)
	for _, f := range r.Shards {
		assert.Equal(t, commit, f.Commit)
		assert.True(t, f.Signed)
	}
	assert.Equal(t, []string{shard, "index/0f.json"}, []string{r.Shards[0].Path, r.Shards[1].Path})

	sw, err := c.SweepState(ctx, "main", configPath, stateBranch)
	require.NoError(t, err)
	assert.Equal(t, r.Shards, sw.State.Shards)
	require.NotNil(t, sw.Config)

	snap, err = c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	require.NotNil(t, snap.State.Shard)
	assert.Equal(t, shard, snap.State.Shard.Path)
	assert.Equal(t, "{\"version\":1,\"runs\":[]}\n", snap.State.Shard.Text)

	_, err = c.CreateComment(ctx, 7, "hi")
	require.NoError(t, err)
	assert.Equal(t, writes+2, c.Writes(), "a REST write")
}
