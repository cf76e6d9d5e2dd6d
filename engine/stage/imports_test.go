package stage_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/org/pipeline-action/"

// TestTypesImportNeitherKernelNorSiblings holds the rule that makes a stage type a unit: its
// package (tests included) sees the evaluation only through the contract of package stage,
// never the kernel (engine and its internal packages that move runs) nor another type.
func TestTypesImportNeitherKernelNorSiblings(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	types := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" || e.Name() == "stagetest" {
			continue
		}
		types++
		own := module + "engine/stage/" + e.Name()
		for path, file := range imports(t, e.Name()) {
			p := strings.TrimPrefix(path, module)
			if p == path {
				continue // the standard library and third-party modules
			}
			switch {
			case p == "engine", strings.HasPrefix(p, "engine/internal/"):
				t.Errorf("%s imports the kernel (%s)", file, path)
			case strings.HasPrefix(p, "engine/stage/") && !strings.HasPrefix(path, own) && !strings.HasPrefix(p, "engine/stage/internal/") && p != "engine/stage/stagetest":
				t.Errorf("%s imports another stage type (%s)", file, path)
			case strings.HasPrefix(p, "cmd/"), strings.HasPrefix(p, "state"), strings.HasPrefix(p, "gates"):
				t.Errorf("%s imports the shell (%s)", file, path)
			}
		}
	}
	assert.GreaterOrEqual(t, types, 2, "the stage types under engine/stage")
}

// imports maps each import path of the Go files under dir to one file that imports it.
func imports(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out[p] = path
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
