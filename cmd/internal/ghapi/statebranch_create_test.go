package ghapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// The first state of a repository creates the branch and commits on it in one request;
// the commit lands on a branch another invocation created at the same head and has not
// moved, and loses to one it moved; a ruleset refusing the branch is ErrForbidden.
func TestCreateBranchWithCommit(t *testing.T) {
	ctx := t.Context()
	files := []state.FileChange{{Path: "pr-7.json", Text: "{\"version\":1}\n"}}
	open := func(t *testing.T) (*ghfake.Server, string, func(string) (string, error)) {
		fake, c := setup(t)
		fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
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
