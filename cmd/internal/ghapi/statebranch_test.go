package ghapi_test

import (
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const stateBranch = "pipeline-action/state"

// The facts query reads the state branch at one head: the subject's file and its shard
// of the index with the commit that last changed each (its author, GitHub's signature);
// the writes create the branch and commit with compare-and-swap.
func TestStateBranchReadAndWrite(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, noPipelines)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})

	snap, err := c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	r := snap.State
	assert.Equal(t, stateBranch, r.Name)
	assert.False(t, r.Exists)
	assert.Nil(t, r.File)
	mainHead, ok := fake.BranchHead(repoName, "main")
	require.True(t, ok)
	assert.Equal(t, mainHead, r.DefaultHead)
	require.NotEmpty(t, r.RepoID)

	require.NoError(t, c.CreateBranch(ctx, r.RepoID, stateBranch, r.DefaultHead))
	err = c.CreateBranch(ctx, r.RepoID, stateBranch, r.DefaultHead)
	require.ErrorIs(t, err, state.ErrConflict, "created by another invocation meanwhile")

	files := []state.FileChange{{Path: "pr-7.json", Text: "{\"version\":1}\n"}, {Path: state.ShardFile("pr-7.json"), Text: "{\"version\":1,\"runs\":[]}\n"}}
	commit, err := c.CommitFiles(ctx, stateBranch, mainHead, files, "pr-7 p: start → a (x)", "body")
	require.NoError(t, err)
	_, err = c.CommitFiles(ctx, stateBranch, mainHead, files, "again", "")
	require.ErrorIs(t, err, state.ErrConflict, "the head moved")

	snap, err = c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	r = snap.State
	assert.True(t, r.Exists)
	assert.Equal(t, commit, r.Head)
	require.NotNil(t, r.File)
	assert.Equal(t, "{\"version\":1}\n", r.File.Text)
	assert.Equal(t, commit, r.File.Commit)
	assert.True(t, r.File.Signed)
	assert.Empty(t, state.TrustFile(r.File, snap.Viewer), "written by the action through the API: trusted")
	assert.Nil(t, r.Index)
	require.NotNil(t, r.Shard)
	assert.Equal(t, commit, r.Shard.Commit)
	log := fake.BranchLog(repoName, stateBranch)
	assert.Equal(t, "pr-7 p: start → a (x)\n\nbody", log[0].Message)

	// Someone pushes over the file, claiming to be the action: not signed by GitHub.
	fake.AddUser("mallory", "write")
	pushed, err := fake.PushCommit(repoName, stateBranch, ghfake.GitPush{Pusher: "mallory", Author: ghfake.BotLogin,
		Files: map[string]string{"pr-7.json": "{\"version\":1,\"seq\":99}\n"}})
	require.NoError(t, err)
	snap, err = c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	assert.Equal(t, pushed, snap.State.File.Commit)
	assert.False(t, snap.State.File.Signed)
	assert.Contains(t, state.TrustFile(snap.State.File, snap.Viewer), "GitHub did not sign")
	assert.Equal(t, commit, snap.State.Shard.Commit, "the shard was last changed before")

	// A ruleset refuses updates: ErrForbidden.
	fake.RestrictBranch(repoName, stateBranch)
	_, err = c.CommitFiles(ctx, stateBranch, pushed, files, "refused", "")
	require.ErrorIs(t, err, state.ErrForbidden)
	assert.Contains(t, err.Error(), "Repository rule violations found")
}

// A ruleset that restricts creating the branch: ErrForbidden.
func TestStateBranchCreationForbidden(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, noPipelines)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	fake.RestrictBranch(repoName, stateBranch)
	snap, err := c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	err = c.CreateBranch(ctx, snap.State.RepoID, stateBranch, snap.State.DefaultHead)
	require.ErrorIs(t, err, state.ErrForbidden)
}

// The first state of a repository creates the branch and commits on it in one request;
// the commit lands on a branch another invocation created at the same head and has not
// moved, and loses to one it moved; a ruleset refusing the branch is ErrForbidden.
func TestCreateBranchWithCommit(t *testing.T) {
	ctx := t.Context()
	files := []state.FileChange{{Path: "pr-7.json", Text: "{\"version\":1}\n"}}
	open := func(t *testing.T) (*ghfake.Server, string, func(string) (string, error)) {
		fake, c := setupWithConfig(t, noPipelines)
		fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
		snap, err := c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
		require.NoError(t, err)
		r := snap.State
		create := func(headline string) (string, error) {
			return c.CreateBranchWithCommit(ctx, r.RepoID, stateBranch, r.DefaultHead, files, headline, "")
		}
		return fake, r.DefaultHead, create
	}

	t.Run("fresh", func(t *testing.T) {
		fake, mainHead, create := open(t)
		fake.ResetStats()
		commit, err := create("pr-7 p: start → a (x)")
		require.NoError(t, err)
		assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats(), "one request")
		head, ok := fake.BranchHead(repoName, stateBranch)
		require.True(t, ok)
		assert.Equal(t, commit, head)
		log := fake.BranchLog(repoName, stateBranch)
		require.NotEmpty(t, log)
		assert.Equal(t, "pr-7 p: start → a (x)", log[0].Message)
		assert.NotEqual(t, mainHead, commit)
	})

	t.Run("created by another invocation, not moved", func(t *testing.T) {
		fake, mainHead, create := open(t)
		fake.AddBranch(repoName, stateBranch)
		head, _ := fake.BranchHead(repoName, stateBranch)
		require.Equal(t, mainHead, head)
		commit, err := create("mine")
		require.NoError(t, err, "the branch is at the head expected: the commit lands")
		head, _ = fake.BranchHead(repoName, stateBranch)
		assert.Equal(t, commit, head)
	})

	t.Run("created and moved by another invocation", func(t *testing.T) {
		fake, _, create := open(t)
		_, err := create("theirs")
		require.NoError(t, err)
		_, err = create("mine")
		require.ErrorIs(t, err, state.ErrConflict)
		assert.Equal(t, "theirs", fake.BranchLog(repoName, stateBranch)[0].Message)
	})

	t.Run("refused by a ruleset", func(t *testing.T) {
		fake, _, create := open(t)
		fake.RestrictBranch(repoName, stateBranch)
		_, err := create("refused")
		require.ErrorIs(t, err, state.ErrForbidden)
		_, ok := fake.BranchHead(repoName, stateBranch)
		assert.False(t, ok)
	})
}

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
