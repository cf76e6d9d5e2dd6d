package ghapi_test

import (
	"context"
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
	ctx := context.Background()
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
	ctx := context.Background()
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
	ctx := context.Background()
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
	ctx := context.Background()
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
	ctx := context.Background()
	fake, c := setup(t)
	fake.OpenPR(repoName, ghfake.PROptions{Number: 7, Author: "dev"})
	oid := fake.SetFile(repoName, "main", "ci/pipes", "version: 1\n")
	snap, err := c.Snapshot(ctx, 7, "main", "ci/pipes")
	require.NoError(t, err)
	require.NotNil(t, snap.Config)
	assert.Equal(t, oid, snap.Config.ID)
	assert.Equal(t, []ghapi.ConfigFile{{Path: "ci/pipes", Blob: ghapi.Blob{OID: oid, Text: "version: 1\n"}}}, snap.Config.Files)
}
