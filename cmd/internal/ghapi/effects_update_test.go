package ghapi_test

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// TestPerformUpdateBranchRefusals: a refused update of a fork's branch and one that would
// bring a workflow change escalate with the cause, not with a scope the token has.
func TestPerformUpdateBranchRefusals(t *testing.T) {
	t.Run("fork", func(t *testing.T) {
		fake, c := setup(t)
		fake.AddBranch(repoName, "develop")
		fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "someone", Head: "develop", Fork: "someone", Files: []string{"README.md"}})
		fake.SetFile(repoName, "main", "NEWS.md", "news")
		o := c.Perform(t.Context(), model.Effect{Key: "r1/up/1/update_branch", Kind: model.EffectUpdateBranch, Number: 7, SHA: fake.PR(repoName, 7).HeadSHA})
		assert.True(t, o.Escalate)
		assert.Contains(t, o.Err, "its branch lives in the fork someone/widgets, which the action's token may not push to")
		assert.NotContains(t, o.Err, "pull-requests", "not a scope the workflow grants")
		assertDocumented(t, fake)
	})
	t.Run("workflows", func(t *testing.T) {
		fake, c := setup(t)
		head := openPR(fake)
		fake.SetFile(repoName, "main", ".github/workflows/ci.yml", "on: push\n")
		o := c.Perform(t.Context(), model.Effect{Key: "r1/up/1/update_branch", Kind: model.EffectUpdateBranch, Number: 7, SHA: head})
		assert.True(t, o.Escalate)
		assert.Contains(t, o.Err, "the update would bring the base branch's change to .github/workflows/ci.yml into it")
		assert.NotContains(t, o.Err, "the pull request changes", "the pull request changes no workflow")
		assert.Equal(t, head, fake.PR(repoName, 7).HeadSHA)
	})
}
