package linkcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README links every example, so that a new one is not found only by listing the folder.
func TestReadmeLinksEveryExample(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	dirs, err := filepath.Glob(filepath.Join(root, "examples", "*", "pipelines.yaml"))
	require.NoError(t, err)
	require.Greater(t, len(dirs), 10)
	for _, d := range dirs {
		name := filepath.Base(filepath.Dir(d))
		assert.True(t, strings.Contains(string(readme), "](examples/"+name+")") || strings.Contains(string(readme), "](examples/"+name+"/"),
			"the README does not link examples/%s", name)
	}
}
