package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readsOf parses the non-test Go files of dir, except those whose names start with one of
// skip, and returns the environment variables they read: the name of each GetInput(name)
// and duration(name) as INPUT_NAME, and each Getenv(name), where name is a string literal or
// a string constant (a constant followed by + is a prefix, returned with a trailing *).
func readsOf(t *testing.T, dir string, skip ...string) map[string]bool {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	consts := map[string]string{}
	var parsed []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		parsed = append(parsed, file)
		ast.Inspect(file, func(n ast.Node) bool {
			if v, ok := n.(*ast.ValueSpec); ok {
				for i, name := range v.Names {
					if i < len(v.Values) {
						if lit, ok := v.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[name.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
			return true
		})
	}
	str := func(e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		case *ast.Ident:
			s, ok := consts[e.Name]
			return s, ok
		case *ast.BinaryExpr:
			if id, ok := e.X.(*ast.Ident); ok && consts[id.Name] != "" {
				return consts[id.Name] + "*", true
			}
		}
		return "", false
	}
	reads := map[string]bool{}
	for _, file := range parsed {
		name := filepath.Base(fset.Position(file.Pos()).Filename)
		if slicesHasPrefix(name, skip) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			arg, ok := str(call.Args[0])
			switch {
			case !ok:
			case sel.Sel.Name == "GetInput" || sel.Sel.Name == "duration":
				reads["INPUT_"+strings.ToUpper(arg)] = true
			case sel.Sel.Name == "Getenv":
				reads[arg] = true
			}
			return true
		})
	}
	return reads
}

func slicesHasPrefix(name string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// run --help names every variable of the environment that the code of run reads: each
// input (INPUT_STATE_KEY among them) and each of GitHub's variables. The files of report
// and sweep, which have their own usage, are left out.
func TestRunUsageNamesEveryInputItReads(t *testing.T) {
	reads := readsOf(t, filepath.Join("..", "run"), "report", "sweep")
	for _, must := range []string{"INPUT_TOKEN", "INPUT_CONFIG", "INPUT_STATE_KEY", "INPUT_STATE_KEY_PREVIOUS", "GITHUB_EVENT_NAME", "PIPELINE_SECRET_*"} {
		assert.True(t, reads[must], "the scan finds %s: %v", must, reads)
	}
	for name := range reads {
		shown := strings.TrimSuffix(name, "*")
		if shown != name {
			shown += "<NAME>"
		}
		assert.Contains(t, runUsage, shown, "run reads %s; run --help should name it", name)
	}
}

// sweep --help names every input the code of sweep reads (all but report's files).
func TestSweepUsageNamesEveryInputItReads(t *testing.T) {
	reads := readsOf(t, filepath.Join("..", "run"), "report")
	assert.True(t, reads["INPUT_STATE_KEY"], "%v", reads)
	for name := range reads {
		if strings.HasPrefix(name, "INPUT_") {
			assert.Contains(t, sweepCmd.Usage, name, "sweep reads %s; sweep --help should name it", name)
		}
	}
}
