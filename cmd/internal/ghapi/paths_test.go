package ghapi_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

func TestPathsAt(t *testing.T) {
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/docs", Files: []string{"docs/guide.md", "CHANGELOG.md"}})
	head := fake.PR(repoName, 7).HeadSHA
	// main moves on: the head's files are what count.
	fake.SetFile(repoName, "main", "NEWS.md", "x\n")
	got, err := c.PathsAt(context.Background(), head, []string{"CHANGELOG.md", "docs", "docs/*.md", "docs/*.txt", "NEWS.md", "*.md", "missing/file"})
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"CHANGELOG.md": true, "docs": true, "docs/*.md": true, "docs/*.txt": false,
		"NEWS.md": false, "*.md": true, "missing/file": false}, got)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())

	_, err = c.PathsAt(context.Background(), head, []string{"src/**/x.go"})
	assert.ErrorContains(t, err, "only the last segment")
}

func TestGlobDir(t *testing.T) {
	for _, tc := range []struct {
		in        string
		dir, name string
		glob, ok  bool
	}{
		{"a/b.md", "", "a/b.md", false, true},
		{"docs/*.md", "docs", "*.md", true, true},
		{"*.md", "", "*.md", true, true},
		{"src/**/x", "", "", true, false},
		{"s*/x", "", "", true, false},
	} {
		dir, name, glob, ok := ghapi.GlobDir(tc.in)
		assert.Equal(t, []any{tc.dir, tc.name, tc.glob, tc.ok}, []any{dir, name, glob, ok}, tc.in)
	}
}
