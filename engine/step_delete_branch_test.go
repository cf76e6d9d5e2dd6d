package engine

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeDeletesOnlyOwnHeadBranch: delete_branch asks for the deletion of the PR's head branch
// only when it is a branch of the repository itself and not its default branch; otherwise the
// merge goes ahead, the branch stays, and the log says why.
func TestMergeDeletesOnlyOwnHeadBranch(t *testing.T) {
	tests := []struct {
		name      string
		headRef   string
		headRepo  string
		crossRepo bool
		keep      string // "" when the branch is deleted; otherwise in the log line
	}{
		{name: "a branch of the repository", headRef: "feat", headRepo: "acme/widgets"},
		{name: "the repository, spelled in another case", headRef: "feat", headRepo: "ACME/widgets"},
		{name: "a fork's branch named like one of the repository's", headRef: "develop", headRepo: "someone/widgets",
			crossRepo: true, keep: "it is a branch of the fork someone/widgets, not of acme/widgets"},
		{name: "a deleted fork", headRef: "develop", crossRepo: true,
			keep: "GitHub does not say which repository it lives in (its fork was deleted)"},
		{name: "no head repository, and not said to be a fork", headRef: "develop",
			keep: "GitHub does not say which repository it lives in"},
		{name: "said to be a fork, of the repository's own name", headRef: "develop", headRepo: "acme/widgets", crossRepo: true,
			keep: "it is a branch of the fork acme/widgets, not of acme/widgets"},
		{name: "another repository, not said to be a fork", headRef: "develop", headRepo: "other/widgets",
			keep: "it is a branch of other/widgets, not of acme/widgets"},
		{name: "the default branch", headRef: "main", headRepo: "acme/widgets",
			keep: "it is the default branch of acme/widgets"},
		{name: "a nameless branch", headRepo: "acme/widgets", keep: "its name is unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := stepConfig()
			cfg.Pipelines[0].Stages[1].Config.DeleteBranch = true
			f := prFacts("ok")
			f.PR.HeadRef, f.PR.HeadRepo, f.PR.CrossRepo = tt.headRef, tt.headRepo, tt.crossRepo
			res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
			require.Len(t, res.Effects, 1)
			eff := res.Effects[0]
			assert.Equal(t, model.EffectMerge, eff.Kind)
			assert.Equal(t, "aaaaaaaaaa", eff.SHA, "the merge goes ahead")
			log := strings.Join(res.Log, "\n")
			if tt.keep == "" {
				assert.True(t, eff.Delete)
				assert.Equal(t, tt.headRef, eff.HeadRef)
				assert.Equal(t, tt.headRepo, eff.HeadRepo)
				assert.NotContains(t, log, "is kept")
				return
			}
			assert.False(t, eff.Delete)
			assert.Empty(t, eff.HeadRef)
			assert.Contains(t, log, "the head branch \""+tt.headRef+"\" is kept after the merge: "+tt.keep)
		})
	}
}

// TestMergeWithoutDeleteBranch asks for no deletion and logs nothing about it.
func TestMergeWithoutDeleteBranch(t *testing.T) {
	f := prFacts("ok")
	f.PR.HeadRepo, f.PR.CrossRepo = "someone/widgets", true
	res := Step(stepConfig(), nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	assert.False(t, res.Effects[0].Delete)
	assert.NotContains(t, strings.Join(res.Log, "\n"), "head branch")
}
