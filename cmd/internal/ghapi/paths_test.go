package ghapi_test

import (
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
	got, err := c.PathsAt(t.Context(), head, []string{"CHANGELOG.md", "docs", "docs/*.md", "docs/*.txt", "NEWS.md", "*.md", "missing/file"})
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"CHANGELOG.md": true, "docs": true, "docs/*.md": true, "docs/*.txt": false,
		"NEWS.md": false, "*.md": true, "missing/file": false}, got)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())

	_, err = c.PathsAt(t.Context(), head, []string{"src/[x"})
	assert.ErrorContains(t, err, "malformed")
}

// Wildcards in directories and `**` read the tree under the pattern's literal prefix, in the
// same one query.
func TestPathsAtDeep(t *testing.T) {
	fake, c := setup(t)
	files := []string{"src/a/auth/login.go", "src/b/c/d/auth/token_test.go", "pkg/x/y.md", "deep/1/2/3/4/5/6/7/8/9/10/leaf.txt", "deep/top.txt"}
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/deep", Files: files})
	head := fake.PR(repoName, 7).HeadSHA
	patterns := []string{
		"src/*/auth/*.go",       // one directory wildcard
		"src/*/auth/*_test.go",  // in src/b/c/d only: too deep for one *
		"src/**/auth/*_test.go", // any depth
		"**/y.md",
		"*/x/*.md",
		"src/**",      // src itself
		"docs/**",     // no docs
		"README.md/*", // a file has no entries
		"**/leaf.txt", // deeper than what is read: unknown
		"deep/**/*.go",
		"deep/*",
		"src/",
	}
	got, err := c.PathsAt(t.Context(), head, patterns)
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{
		"src/*/auth/*.go": true, "src/*/auth/*_test.go": false, "src/**/auth/*_test.go": true,
		"**/y.md": true, "*/x/*.md": true, "src/**": true, "docs/**": false, "README.md/*": false,
		"deep/*": true, "src/": true,
	}, got, "**/leaf.txt and deep/**/*.go lie beyond the depth read: left unread")
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
}

func TestGlobPrefix(t *testing.T) {
	for _, tc := range []struct {
		in     string
		prefix string
		depth  int
	}{
		{"a/b.md", "a/b.md", 0},
		{"docs/*.md", "docs", 1},
		{"*.md", "", 1},
		{"src/**/x", "src", -1},
		{"s*/x", "", 2},
		{"a/b/[c]/d/e", "a/b", 3},
	} {
		prefix, depth := ghapi.GlobPrefix(tc.in)
		assert.Equal(t, []any{tc.prefix, tc.depth}, []any{prefix, depth}, tc.in)
	}
}
