package ghapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

func TestChangedFiles(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/auth", Files: []string{"src/auth/login.go", "README.md"}})
	got, truncated, err := c.ChangedFiles(t.Context(), 7)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"src/auth/login.go", "README.md"}, got)
	assert.False(t, truncated)
	assert.Equal(t, 1, fake.Stats()["pulls/list-files"])

	// GitHub lists 3,000 files at most, 100 a page: a bigger change is read in 30 pages and
	// said to be truncated.
	many := make([]string, 3050)
	for i := range many {
		many[i] = fmt.Sprintf("gen/f%04d.go", i)
	}
	fake.OpenPR(repoName, ghfake.PROptions{Number: 8, Author: "dev", Head: "feat/gen", Files: many})
	before := fake.Stats()["pulls/list-files"]
	got, truncated, err = c.ChangedFiles(t.Context(), 8)
	require.NoError(t, err)
	assert.Len(t, got, ghapi.MaxListedFiles)
	assert.True(t, truncated)
	assert.Equal(t, 30, fake.Stats()["pulls/list-files"]-before)
}
