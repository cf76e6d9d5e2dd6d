package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
)

// TestLoadReference loads every YAML block of the "Unified Pipeline System" design the
// language follows, copied into lang/load/testdata/reference with the adaptations each file's
// header names, with the built-in gates: each loads without an error.
func TestLoadReference(t *testing.T) {
	files, err := filepath.Glob("lang/load/testdata/reference/*.yaml")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 12)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			cfg, err := engine.Load(file, src, gates.Default())
			require.NoError(t, err)
			require.NotEmpty(t, cfg.Pipelines)
		})
	}
}

// TestLoadFilesReference loads the reference's sub-pipeline composition split the way
// a repository would: the sub-pipeline in .github/pipelines/, the rest in
// .github/pipelines.yaml.
func TestLoadFilesReference(t *testing.T) {
	src, err := os.ReadFile("lang/load/testdata/reference/10_sub_pipelines.yaml")
	require.NoError(t, err)
	whole := string(src)
	i := strings.Index(whole, "  # Reusable review sub-pipeline")
	j := strings.Index(whole, "  # Parent pipeline references")
	require.True(t, i > 0 && j > i)
	main := whole[:i] + whole[j:]
	sub := "pipelines:\n" + whole[i:j]
	cfg, err := engine.LoadFiles([]load.SourceFile{
		{Path: ".github/pipelines/standard-review.yaml", Src: []byte(sub)},
		{Path: ".github/pipelines.yaml", Src: []byte(main)},
	}, gates.Default())
	require.NoError(t, err)
	var names []string
	for _, p := range cfg.Pipelines {
		names = append(names, p.Name)
	}
	require.Equal(t, []string{"feature-dev", "standard-review"}, names)
	require.Equal(t, ".github/pipelines/standard-review.yaml", cfg.Pipeline("standard-review").Pos.File)
}
