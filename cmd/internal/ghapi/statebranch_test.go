package ghapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

const stateBranch = "pipeline-action/state"

// The facts query reads the state branch at one head: the subject's file and its shard
// of the index with the commit that last changed each (its author, GitHub's signature);
// the writes create the branch and commit with compare-and-swap.
func TestStateBranchReadAndWrite(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
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
	fake, c := setup(t)
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	fake.RestrictBranch(repoName, stateBranch)
	snap, err := c.SnapshotState(ctx, 7, "main", configPath, stateBranch)
	require.NoError(t, err)
	err = c.CreateBranch(ctx, snap.State.RepoID, stateBranch, snap.State.DefaultHead)
	require.ErrorIs(t, err, state.ErrForbidden)
}
