package ghfake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const treeQuery = `query($expr: String!, $oid: GitObjectID!) {
  repository(owner: "acme", name: "widgets") {
    dir: object(expression: $expr) { __typename ... on Tree { oid entries { name path type mode oid object { __typename ... on Blob { oid text } ... on Tree { oid } } } } }
    byOid: object(oid: $oid) { __typename ... on Tree { oid entries { name } } }
    file: object(expression: "main:.github/pipelines/a.yaml") { __typename ... on Blob { text } }
    none: object(expression: "main:.github/nothing") { __typename }
  }
}`

// The OIDs below are git's: `git ls-tree -r -t` of a repository holding the same files.
func TestTreesAreGitTrees(t *testing.T) {
	s := widgets(t)
	s.SetFile(testRepo, "main", ".github/pipelines/a.yaml", "version: 1\n")
	s.SetFile(testRepo, "main", ".github/pipelines/sub/b.yaml", "x: 1\n")
	s.SetFile(testRepo, "main", ".github/pipelines/sub.md", "note\n")

	out := gql(t, s, s.BotToken(), treeQuery, map[string]any{
		"expr": "main:.github/pipelines", "oid": "04550cbb39af7ecd349b481defcfe8c7fb21be01"})
	require.Nil(t, out["errors"])
	repo := dig(t, out, "data", "repository")
	dir := dig(t, repo, "dir")
	assert.Equal(t, "Tree", dig(t, dir, "__typename"))
	assert.Equal(t, "04550cbb39af7ecd349b481defcfe8c7fb21be01", dig(t, dir, "oid"))
	entries := dig(t, dir, "entries").([]any)
	require.Len(t, entries, 3)
	// "sub.md" sorts before the directory "sub", which git compares as "sub/".
	assert.Equal(t, map[string]any{"name": "a.yaml", "path": ".github/pipelines/a.yaml", "type": "blob", "mode": float64(0o100644),
		"oid":    "b82551848c644f63b8517a7bdf8be9a992e6f4da",
		"object": map[string]any{"__typename": "Blob", "oid": "b82551848c644f63b8517a7bdf8be9a992e6f4da", "text": "version: 1\n"}}, entries[0])
	assert.Equal(t, "sub.md", dig(t, entries[1], "name"))
	assert.Equal(t, "519dd581e50e5b45d3b3c76c3172e9c3ec293488", dig(t, entries[1], "oid"))
	assert.Equal(t, "sub", dig(t, entries[2], "name"))
	assert.Equal(t, "tree", dig(t, entries[2], "type"))
	assert.Equal(t, float64(0o40000), dig(t, entries[2], "mode"))
	assert.Equal(t, "49155746c1cd097478da16389afb6d330de16fe3", dig(t, entries[2], "object", "oid"))
	assert.Equal(t, "Tree", dig(t, repo, "byOid", "__typename"), "a tree read once is found by its OID")
	assert.Equal(t, "Blob", dig(t, repo, "file", "__typename"))
	assert.Nil(t, dig(t, repo, "none"))

	// The branch moves on: the old tree is still there by its OID, the path names a new one.
	s.SetFile(testRepo, "main", ".github/pipelines/a.yaml", "version: 1\npipelines: {}\n")
	require.True(t, s.DeleteFile(testRepo, "main", ".github/pipelines/sub.md"))
	assert.False(t, s.DeleteFile(testRepo, "main", ".github/pipelines/sub.md"))
	out = gql(t, s, s.BotToken(), treeQuery, map[string]any{
		"expr": "main:.github/pipelines", "oid": "04550cbb39af7ecd349b481defcfe8c7fb21be01"})
	require.Nil(t, out["errors"])
	repo = dig(t, out, "data", "repository")
	assert.NotEqual(t, "04550cbb39af7ecd349b481defcfe8c7fb21be01", dig(t, repo, "dir", "oid"))
	assert.Len(t, dig(t, repo, "dir", "entries"), 2)
	assert.Len(t, dig(t, repo, "byOid", "entries"), 3)
}
