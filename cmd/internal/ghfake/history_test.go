package ghfake

import (
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const historyQuery = `query($branch: String!, $path: String!) {
  repository(owner: "acme", name: "widgets") {
    ref(qualifiedName: $branch) { target { ... on Commit {
      oid
      parents(first: 5) { nodes { oid } }
      all: history(first: 100) { totalCount nodes { oid } }
      touching: history(first: 100, path: $path) { totalCount nodes { oid message file(path: $path) { oid name path type object { __typename } } } }
      page: history(first: 1, path: $path) { pageInfo { hasNextPage endCursor } nodes { oid } }
    } } }
  }
}`

// history runs historyQuery on branch and returns the target commit's fields.
func history(t *testing.T, s *Server, branch, path string) map[string]any {
	t.Helper()
	out := gql(t, s, s.BotToken(), historyQuery, map[string]any{"branch": "refs/heads/" + branch, "path": path})
	require.Nil(t, out["errors"])
	return dig(t, out, "data", "repository", "ref", "target").(map[string]any)
}

// column collects one field of a list of objects.
func column(t *testing.T, nodes any, path ...any) []any {
	t.Helper()
	var out []any
	for _, n := range nodes.([]any) {
		out = append(out, dig(t, n, path...))
	}
	return out
}

func headOf(s *Server, branch string) string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.Repos[testRepo].Branches[branch].Head
}

// Commit.history lists, newest first, the commits of a branch that changed a path, each with the
// file at that commit; another branch's commits are not in it.
func TestCommitHistory(t *testing.T) {
	const cfg = ".github/pipelines.yaml"
	s := widgets(t) // main: initial commit, then the config; #7's head feat/login branches off
	v1 := headOf(s, "main")
	other := s.SetFile(testRepo, "main", "src/main.go", "package main\n")
	blob2 := s.SetFile(testRepo, "main", cfg, "version: 1\npipelines: {}\n")
	v2 := headOf(s, "main")
	evil := s.SetFile(testRepo, "feat/login", cfg, "version: 1\n# from the PR\n")
	pr := headOf(s, "feat/login")

	h := history(t, s, "main", cfg)
	assert.Equal(t, v2, h["oid"])
	assert.Equal(t, []any{v2, v1}, column(t, dig(t, h, "touching", "nodes"), "oid"), "the commits that changed the config")
	assert.Equal(t, float64(2), dig(t, h, "touching", "totalCount"))
	assert.Equal(t, []any{blob2, world.BlobOID("version: 1\n")}, column(t, dig(t, h, "touching", "nodes"), "file", "oid"))
	assert.Equal(t, map[string]any{"oid": blob2, "name": "pipelines.yaml", "path": cfg, "type": "blob", "object": map[string]any{"__typename": "Blob"}},
		dig(t, h, "touching", "nodes", 0, "file"))
	assert.Equal(t, float64(4), dig(t, h, "all", "totalCount"), "initial commit, config, src/main.go, config")
	assert.Equal(t, "Update .github/pipelines.yaml", dig(t, h, "touching", "nodes", 1, "message"))
	assert.Equal(t, v1, dig(t, h, "all", "nodes", 2, "oid"))
	assert.Len(t, dig(t, h, "parents", "nodes"), 1)
	assert.Equal(t, []any{v2}, column(t, dig(t, h, "page", "nodes"), "oid"))
	assert.Equal(t, true, dig(t, h, "page", "pageInfo", "hasNextPage"))

	h = history(t, s, "feat/login", cfg)
	assert.Equal(t, []any{pr, v1}, column(t, dig(t, h, "touching", "nodes"), "oid"), "the branch's own change and what it branched from")
	assert.Equal(t, []any{evil, world.BlobOID("version: 1\n")}, column(t, dig(t, h, "touching", "nodes"), "file", "oid"))
	assert.NotContains(t, column(t, dig(t, h, "all", "nodes"), "oid"), v2, "main's later commits are not the branch's")

	// A path never there: no commits; a file absent at a commit: null.
	h = history(t, s, "main", "nothing/here")
	assert.Equal(t, float64(0), dig(t, h, "touching", "totalCount"))
	h = history(t, s, "main", "src/main.go")
	nodes := dig(t, h, "touching", "nodes").([]any)
	require.Len(t, nodes, 1)
	assert.Equal(t, other, dig(t, nodes[0], "file", "oid"))
}

// Commit.file of a directory is its tree: the entry's oid is the tree's, as Repository.object
// gives it; the history of a directory lists the commits that changed a file under it.
func TestCommitFileDirectory(t *testing.T) {
	const dir = ".github/pipelines"
	s := widgets(t)
	s.SetFile(testRepo, "main", dir+"/a.yaml", "a: 1\n")
	first := headOf(s, "main")
	s.SetFile(testRepo, "main", "README.md", "hi\n")
	s.SetFile(testRepo, "main", dir+"/sub/b.yaml", "b: 1\n")
	second := headOf(s, "main")

	h := history(t, s, "main", dir)
	nodes := dig(t, h, "touching", "nodes")
	assert.Equal(t, []any{second, first}, column(t, nodes, "oid"))
	out := gql(t, s, s.BotToken(), `{ repository(owner: "acme", name: "widgets") { object(expression: "main:.github/pipelines") { oid } } }`, nil)
	assert.Equal(t, dig(t, out, "data", "repository", "object", "oid"), dig(t, nodes, 0, "file", "oid"))
	assert.Equal(t, map[string]any{"__typename": "Tree"}, dig(t, nodes, 0, "file", "object"))
	assert.Equal(t, "tree", dig(t, nodes, 0, "file", "type"))
	assert.Equal(t, "pipelines", dig(t, nodes, 0, "file", "name"))
	assert.NotEqual(t, dig(t, nodes, 0, "file", "oid"), dig(t, nodes, 1, "file", "oid"))

	// Paths GitHub does not resolve to an entry: none.
	for _, p := range []string{"", "/" + dir, dir + "/", ".github/pipelines/a"} {
		out := gql(t, s, s.BotToken(), `query($p: String!) { repository(owner: "acme", name: "widgets") { defaultBranchRef { target { ... on Commit { file(path: $p) { oid } } } } } }`,
			map[string]any{"p": p})
		require.Nil(t, out["errors"], p)
		assert.Nil(t, dig(t, out, "data", "repository", "defaultBranchRef", "target", "file"), p)
	}
}

// A pull request merged with a merge commit brings its branch's commits into the base's
// history (the merge commit has the head as second parent), as git log shows them; a squash
// merge makes one commit on the base.
func TestCommitHistoryAfterMerge(t *testing.T) {
	const cfg = ".github/pipelines.yaml"
	for _, method := range []string{"merge", "squash"} {
		t.Run(method, func(t *testing.T) {
			s := widgets(t)
			v1 := headOf(s, "main")
			s.SetFile(testRepo, "feat/login", cfg, "version: 1\n# step 1\n")
			step1 := headOf(s, "feat/login")
			s.SetFile(testRepo, "feat/login", cfg, "version: 1\n# step 2\n")
			step2 := headOf(s, "feat/login")
			_, _, err := client(t, s, s.BotToken()).PullRequests.Merge(t.Context(), "acme", "widgets", 7, "", &github.PullRequestOptions{MergeMethod: method})
			require.NoError(t, err)
			merged := headOf(s, "main")

			h := history(t, s, "main", cfg)
			touching := column(t, dig(t, h, "touching", "nodes"), "oid")
			if method == "merge" {
				assert.Equal(t, []any{v1, step2}, column(t, dig(t, h, "parents", "nodes"), "oid"))
				assert.Equal(t, []any{step2, step1, v1}, touching, "the merge commit is the same as the head there")
			} else {
				assert.Equal(t, []any{v1}, column(t, dig(t, h, "parents", "nodes"), "oid"))
				assert.Equal(t, []any{merged, v1}, touching)
			}
			assert.Equal(t, world.BlobOID("version: 1\n# step 2\n"), dig(t, h, "touching", "nodes", 0, "file", "oid"))
		})
	}
}

// A ref moved to a commit holds that commit's files.
func TestRefTakesCommitFiles(t *testing.T) {
	s := widgets(t)
	old := headOf(s, "main")
	s.SetFile(testRepo, "main", ".github/pipelines.yaml", "version: 2\n")
	c := client(t, s, s.BotToken())
	_, _, err := c.Git.CreateRef(t.Context(), "acme", "widgets", &github.Reference{Ref: github.String("refs/heads/old"), Object: &github.GitObject{SHA: github.String(old)}})
	require.NoError(t, err)
	file, _, _, err := c.Repositories.GetContents(t.Context(), "acme", "widgets", ".github/pipelines.yaml", &github.RepositoryContentGetOptions{Ref: "old"})
	require.NoError(t, err)
	text, err := file.GetContent()
	require.NoError(t, err)
	assert.Equal(t, "version: 1\n", text)
}

// PushFiles commits files on a pull request's head branch, a fork's too: the head moves, the
// files are the PR's, and the base repository holds their blobs, which are no version of
// anything on its default branch.
func TestPushFiles(t *testing.T) {
	const cfg = ".github/pipelines.yaml"
	s := widgets(t)
	s.OpenPR(testRepo, PROptions{Number: 8, Author: "someone", Head: "develop", Fork: "someone"})
	ev := s.PushFiles(testRepo, 8, map[string]string{cfg: "version: 1\n# fork\n"})
	assert.Equal(t, "synchronize", ev.Action)
	pr := s.PR(testRepo, 8)

	out := gql(t, s, s.BotToken(), `query($oid: GitObjectID!, $path: String!) { repository(owner: "acme", name: "widgets") {
	  object(oid: $oid) { __typename }
	  defaultBranchRef { target { ... on Commit { history(first: 100, path: $path) { nodes { file(path: $path) { oid } } } } } }
	  pullRequest(number: 8) { headRefOid headRef { name } } } }`,
		map[string]any{"oid": world.BlobOID("version: 1\n# fork\n"), "path": cfg})
	require.Nil(t, out["errors"])
	assert.Equal(t, "Blob", dig(t, out, "data", "repository", "object", "__typename"), "a fork's objects are in the network")
	assert.Equal(t, []any{world.BlobOID("version: 1\n")}, column(t, dig(t, out, "data", "repository", "defaultBranchRef", "target", "history", "nodes"), "file", "oid"))
	assert.Equal(t, pr.HeadSHA, dig(t, out, "data", "repository", "pullRequest", "headRefOid"))

	s.Mu.Lock()
	assert.Equal(t, []string{cfg}, s.Repos[testRepo].Issues[8].Files, "the PR changes the file")
	fork := s.Repos["someone/widgets"]
	head := fork.Branches["develop"]
	assert.Equal(t, pr.HeadSHA, head.Head)
	assert.Equal(t, world.BlobOID("version: 1\n# fork\n"), fork.Commits[head.Head].Files[cfg].OID)
	s.Mu.Unlock()
}
