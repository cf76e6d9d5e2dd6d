package ghapi_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
)

// TestCodeOwners reads CODEOWNERS of a branch where GitHub looks for it, the first found in
// GitHub's order winning, in one query; a branch without one gives no path.
func TestCodeOwners(t *testing.T) {
	fake, c := setup(t)
	ctx := context.Background()
	co, err := c.CodeOwners(ctx, "main")
	require.NoError(t, err)
	assert.Equal(t, &model.CodeOwners{}, co)

	fake.SetFile(repoName, "main", "docs/CODEOWNERS", "* @docs-owner\n")
	fake.SetFile(repoName, "main", "CODEOWNERS", "* @root-owner\n!x @y\n")
	fake.SetFile(repoName, "other", ".github/CODEOWNERS", "* @other-branch\n")
	co, err = c.CodeOwners(ctx, "main")
	require.NoError(t, err)
	assert.Equal(t, "CODEOWNERS", co.Path, "the root's comes before docs/")
	assert.Equal(t, []string{"@root-owner"}, co.OwnersOf("a.go"))
	assert.Equal(t, []string{`line 2: "!x": negation is not supported in CODEOWNERS`}, co.Errors)

	fake.SetFile(repoName, "main", ".github/CODEOWNERS", "*.go @go-owner\n")
	co, err = c.CodeOwners(ctx, "main")
	require.NoError(t, err)
	assert.Equal(t, ".github/CODEOWNERS", co.Path)
	assert.Empty(t, co.OwnersOf("README.md"), "only the first file found counts")
	assert.Equal(t, map[string]int{"graphql": 3}, fake.Stats())
}
