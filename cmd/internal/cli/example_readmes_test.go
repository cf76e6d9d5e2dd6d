package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeCommand is a validate or graph command line an example's README shows.
var readmeCommand = regexp.MustCompile("pipeline-action ((?:validate|graph)\\b[^`#\\n]*)")

// Every validate and graph command an example's README shows exits 0 as written, from the
// repository's root (simulate's are played in cmd/internal/sim).
func TestExampleReadmeCommandsPass(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	readmes, err := filepath.Glob(filepath.Join(root, "examples", "*", "README.md"))
	require.NoError(t, err)
	ran := 0
	for _, readme := range readmes {
		b, err := os.ReadFile(readme)
		require.NoError(t, err)
		for _, m := range readmeCommand.FindAllStringSubmatch(string(b), -1) {
			args := strings.Fields(m[1])
			code, stdout, stderr := runMain(t, root, args...)
			assert.Equal(t, 0, code, "%s: %s\nstdout:\n%s\nstderr:\n%s", filepath.Base(filepath.Dir(readme)), m[1], stdout, stderr)
			ran++
		}
	}
	assert.Greater(t, ran, 10, "the examples' commands are run")
}
