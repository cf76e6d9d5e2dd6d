package ghapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

func TestConfigDir(t *testing.T) {
	assert.Equal(t, ".github/pipelines", ghapi.ConfigDir(".github/pipelines.yaml"))
	assert.Equal(t, "ci/pipes", ghapi.ConfigDir("ci/pipes.yml"))
	assert.Equal(t, "", ghapi.ConfigDir("ci/pipes"), "no extension: no directory")
	assert.Equal(t, "", ghapi.ConfigDir("ci/.yaml"))
}

// TestSnapshotSplitConfig reads .github/pipelines.yaml and .github/pipelines/*.yaml of the
// default branch in the one facts query, as validate loads them: *.yaml files only, no
// subdirectories, nothing from the PR's branch.
func TestSnapshotSplitConfig(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	main := fake.SetFile(repoName, "main", configPath, "version: 1\n")
	merge := fake.SetFile(repoName, "main", ".github/pipelines/merge.yaml", "pipelines: {}\n")
	audit := fake.SetFile(repoName, "main", ".github/pipelines/audit.yaml", "agents: {}\n")
	fake.SetFile(repoName, "main", ".github/pipelines/README.md", "not config\n")
	fake.SetFile(repoName, "main", ".github/pipelines/old.yml", "not config either\n")
	fake.SetFile(repoName, "main", ".github/pipelines/sub/deep.yaml", "nor this\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"})
	fake.SetFile(repoName, "feat/x", ".github/pipelines/evil.yaml", "pipelines: {}\n")
	fake.ResetStats()

	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats(), "the config directory is read in the one query")
	require.NotNil(t, snap.Config)
	assert.Equal(t, []ghapi.ConfigFile{
		{Path: ".github/pipelines.yaml", Blob: ghapi.Blob{OID: main, Text: "version: 1\n"}},
		{Path: ".github/pipelines/audit.yaml", Blob: ghapi.Blob{OID: audit, Text: "agents: {}\n"}},
		{Path: ".github/pipelines/merge.yaml", Blob: ghapi.Blob{OID: merge, Text: "pipelines: {}\n"}},
	}, snap.Config.Files)
	blobOID, treeOID, ok := strings.Cut(snap.Config.ID, "+tree:")
	require.True(t, ok, snap.Config.ID)
	assert.Equal(t, main, blobOID)
	assert.Len(t, treeOID, 40)
	first := snap.Config

	// Another file of the directory changes: a new identity; the old one reads back as it was.
	fake.SetFile(repoName, "main", ".github/pipelines/merge.yaml", "pipelines: {a: {}}\n")
	snap, err = c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	assert.NotEqual(t, first.ID, snap.Config.ID)
	assert.True(t, strings.HasPrefix(snap.Config.ID, main+"+tree:"), "the file did not change")
	fake.ResetStats()
	back, err := c.ConfigByID(ctx, first.ID, configPath)
	require.NoError(t, err)
	assert.Equal(t, first, back)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
}

func TestSnapshotConfigDirectoryAlone(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	merge := fake.SetFile(repoName, "main", ".github/pipelines/merge.yaml", "version: 1\npipelines: {}\n")
	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	require.NotNil(t, snap.Config)
	assert.Equal(t, []ghapi.ConfigFile{{Path: ".github/pipelines/merge.yaml", Blob: ghapi.Blob{OID: merge, Text: "version: 1\npipelines: {}\n"}}}, snap.Config.Files)
	require.True(t, strings.HasPrefix(snap.Config.ID, "tree:"), snap.Config.ID)
	back, err := c.ConfigByID(ctx, snap.Config.ID, configPath)
	require.NoError(t, err)
	assert.Equal(t, snap.Config, back)
}

// A directory without *.yaml files adds nothing: the config is the file, and its identity the
// file's blob OID, as the runs of states written before directories were read pinned it.
func TestSnapshotConfigDirectoryWithoutYAML(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	main := fake.SetFile(repoName, "main", configPath, "version: 1\n")
	fake.SetFile(repoName, "main", ".github/pipelines/README.md", "docs\n")
	snap, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	require.NotNil(t, snap.Config)
	assert.Equal(t, main, snap.Config.ID)
	require.Len(t, snap.Config.Files, 1)
	back, err := c.ConfigByID(ctx, main, configPath)
	require.NoError(t, err)
	assert.Equal(t, snap.Config, back, "a blob OID pinned by an older state reads back")
}

func TestConfigByIDNamesNothing(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	main := fake.SetFile(repoName, "main", configPath, "version: 1\n")
	for _, id := range []string{
		"", "nonsense", "tree:" + main, // a blob is not a tree
		main + "+" + main, "tree:" + main + "+" + main, // malformed
		strings.Repeat("0", 40), // no such object
	} {
		got, err := c.ConfigByID(ctx, id, configPath)
		require.NoError(t, err, id)
		assert.Nil(t, got, id)
	}
}

func TestSnapshotCustomConfigPathWithoutExtension(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	oid := fake.SetFile(repoName, "main", "ci/pipes", "version: 1\n")
	snap, err := c.Snapshot(ctx, 7, "main", "ci/pipes")
	require.NoError(t, err)
	require.NotNil(t, snap.Config)
	assert.Equal(t, oid, snap.Config.ID)
	assert.Equal(t, []ghapi.ConfigFile{{Path: "ci/pipes", Blob: ghapi.Blob{OID: oid, Text: "version: 1\n"}}}, snap.Config.Files)
}

// A run pins the config it started under; a later change on the default branch leaves that
// version readable by its ID, in the one query.
func TestConfigByIDOlderVersion(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	fake.SetFile(repoName, "main", configPath, "version: 1\n")
	old, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	fake.SetFile(repoName, "main", configPath, "version: 1\npipelines: {}\n")
	fake.SetFile(repoName, "main", "src/main.go", "package main\n")
	fake.ResetStats()
	back, err := c.ConfigByID(ctx, old.Config.ID, configPath)
	require.NoError(t, err)
	assert.Equal(t, old.Config, back)
	assert.Equal(t, map[string]int{"graphql": 1}, fake.Stats())
	assertDocumented(t, fake)
}

// Stored state names the config a run follows by its git objects, and those are readable by
// OID whatever branch (or fork) holds them. Only versions of the config on the default branch
// are configs: a blob or tree written on a pull request's branch, in a fork, or at another
// path of the default branch is not, whatever it says.
func TestConfigByIDRefusesObjectsOffTheDefaultBranch(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	mainBlob := fake.SetFile(repoName, "main", configPath, "version: 1\n")
	fake.SetFile(repoName, "main", ".github/pipelines/merge.yaml", "pipelines: {}\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"})
	fake.OpenPR(repoName, ghfake.PROptions{Number: 8, Author: "someone", Head: "develop", Fork: "someone"})
	const permissive = "version: 1\npipelines: {yolo: {}}\n"
	prBlob := fake.SetFile(repoName, "feat/x", configPath, permissive)
	forkBlob := fake.SetFile("someone/widgets", "develop", configPath, permissive+"# fork\n")
	elsewhere := fake.SetFile(repoName, "main", "docs/example.yaml", permissive+"# example\n")
	fake.SetFile(repoName, "feat/x", ".github/pipelines/merge.yaml", "pipelines: {yolo: {}}\n")

	onMain, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	mainTree := strings.TrimPrefix(onMain.Config.ID, mainBlob+"+")
	// What a run would have pinned had it read the config of the PR's branch.
	onPR, err := c.Snapshot(ctx, 7, "feat/x", configPath)
	require.NoError(t, err)
	prTree := strings.TrimPrefix(onPR.Config.ID, prBlob+"+")
	require.True(t, strings.HasPrefix(prTree, "tree:"), onPR.Config.ID)
	require.NotEqual(t, mainTree, prTree)

	back, err := c.ConfigByID(ctx, onMain.Config.ID, configPath)
	require.NoError(t, err)
	assert.Equal(t, onMain.Config, back, "the default branch's config reads back")
	for name, id := range map[string]string{
		"PR blob and tree":             onPR.Config.ID,
		"PR blob":                      prBlob,
		"fork blob":                    forkBlob,
		"blob at another path":         elsewhere,
		"PR blob with main's tree":     prBlob + "+" + mainTree,
		"main's blob with PR's tree":   mainBlob + "+" + prTree,
		"PR tree alone":                prTree,
		"main's tree as the file":      strings.TrimPrefix(mainTree, "tree:"),
		"main's blob as the directory": "tree:" + mainBlob,
	} {
		got, err := c.ConfigByID(ctx, id, configPath)
		require.NoError(t, err, name)
		assert.Nil(t, got, name)
	}
	assertDocumented(t, fake)
}

// A tree of the directory written on a pull request's branch is refused when the config is
// the directory alone too.
func TestConfigByIDRefusesPRTreeAlone(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	fake.SetFile(repoName, "main", ".github/pipelines/merge.yaml", "version: 1\npipelines: {}\n")
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev", Head: "feat/x"})
	fake.SetFile(repoName, "feat/x", ".github/pipelines/merge.yaml", "version: 1\npipelines: {yolo: {}}\n")
	onMain, err := c.Snapshot(ctx, 7, "main", configPath)
	require.NoError(t, err)
	onPR, err := c.Snapshot(ctx, 7, "feat/x", configPath)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(onPR.Config.ID, "tree:"), onPR.Config.ID)

	got, err := c.ConfigByID(ctx, onPR.Config.ID, configPath)
	require.NoError(t, err)
	assert.Nil(t, got)
	got, err = c.ConfigByID(ctx, onMain.Config.ID, configPath)
	require.NoError(t, err)
	assert.Equal(t, onMain.Config, got)

	// Once the same files land on the default branch, they are a version of its config.
	fake.SetFile(repoName, "main", ".github/pipelines/merge.yaml", "version: 1\npipelines: {yolo: {}}\n")
	got, err = c.ConfigByID(ctx, onPR.Config.ID, configPath)
	require.NoError(t, err)
	assert.Equal(t, onPR.Config, got)
}

// Versions are looked for among the last 100 changes of the config on the default branch:
// an older pin is not read back (its runs follow the current config).
func TestConfigByIDLooksBack100Changes(t *testing.T) {
	ctx := t.Context()
	fake, c := setup(t)
	first := fake.SetFile(repoName, "main", configPath, "version: 1\n")
	second := fake.SetFile(repoName, "main", configPath, "version: 1\n# 1\n")
	for i := 2; i <= 100; i++ {
		fake.SetFile(repoName, "main", configPath, fmt.Sprintf("version: 1\n# %d\n", i))
	}
	got, err := c.ConfigByID(ctx, first, configPath)
	require.NoError(t, err)
	assert.Nil(t, got, "101 changes ago")
	got, err = c.ConfigByID(ctx, second, configPath)
	require.NoError(t, err)
	require.NotNil(t, got, "100 changes ago")
	assert.Equal(t, second, got.ID)
}
