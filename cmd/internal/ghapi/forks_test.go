package ghapi_test

import (
	"slices"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// TestSnapshotHeadRepository reads where each PR's head branch lives: #7 in the repository,
// #8 in someone's fork, from a branch named like one of the repository's.
func TestSnapshotHeadRepository(t *testing.T) {
	ctx := t.Context()
	fake, c := setupWithConfig(t, versionOnly)
	fake.AddBranch(repoName, "develop")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/login"})
	fake.OpenPR(repoName, ghfake.PROptions{Number: 8, Author: "someone", Head: "develop", Fork: "someone"})

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	assert.False(t, snap.Facts.PR.CrossRepo)
	assert.Equal(t, repoName, snap.Facts.PR.HeadRepo)

	snap, err = c.Snapshot(ctx, 8, "main", configPath)
	require.NoError(t, err)
	assert.True(t, snap.Facts.PR.CrossRepo)
	assert.Equal(t, "someone/widgets", snap.Facts.PR.HeadRepo)
	assert.Equal(t, "develop", snap.Facts.PR.HeadRef)
	assertDocumented(t, fake)
}

// TestPerformMergeDeletesOnlyOwnBranch: an effect deletes heads/<name> only when it says the
// branch is this repository's; otherwise the merge goes ahead and no branch is touched.
func TestPerformMergeDeletesOnlyOwnBranch(t *testing.T) {
	tests := []struct {
		name     string
		headRepo string
		deleted  bool
	}{
		{"this repository's branch", repoName, true},
		{"this repository's, spelled in another case", "Acme/Widgets", true},
		{"a fork's branch", "someone/widgets", false},
		{"an effect that does not say where the branch lives", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake, c := setup(t)
			fake.AddBranch(repoName, "develop")
			fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "develop"})
			head := fake.PR(repoName, 7).HeadSHA
			fake.ResetStats()
			o := c.Perform(t.Context(), model.Effect{Key: "k", Kind: model.EffectMerge, Number: 7,
				SHA: head, Method: "squash", Delete: true, HeadRef: "develop", HeadRepo: tt.headRepo})
			assert.Equal(t, model.Outcome{Key: "k"}, o)
			assert.True(t, fake.PR(repoName, 7).Merged)
			assert.Equal(t, tt.deleted, !slices.Contains(fake.Branches(repoName), "develop"))
			if tt.deleted {
				assert.Equal(t, map[string]int{"pulls/merge": 1, "git/delete-ref": 1}, fake.Stats())
			} else {
				assert.Equal(t, map[string]int{"pulls/merge": 1}, fake.Stats())
			}
			assertDocumented(t, fake)
		})
	}
}
