// Package layout holds the house's measures of its own shape: how many methods a type
// has, how large a package is, how many comments point at files, and whether the
// evaluator's layers still have files of one name.
package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "../.."

// maxMethods is the most methods a type may have.
const maxMethods = 40

// methodBudgets are the types that still have more, each at most its budget: the list may
// only shrink, and a type back within maxMethods leaves it.
var methodBudgets = map[string]int{
	"cmd/internal/sim.simulation": 94,
	"cmd/internal/ghapi.Client":   66,
	"cmd/internal/run.Runner":     62,
}

// maxPointers is the most comments that name a .go file to say where code lives.
const maxPointers = 100

// pointer is a comment naming a Go file of the repository.
var pointer = regexp.MustCompile(`//.*\b[a-z_0-9]+\.go\b`)

// sources maps each directory of the repository to the parsed non-test Go files in it.
func sources(t *testing.T) map[string][]*ast.File {
	t.Helper()
	out := map[string][]*ast.File{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		out[filepath.Dir(path)] = append(out[filepath.Dir(path)], f)
		return nil
	})
	require.NoError(t, err)
	return out
}

// TestMethodsPerType: a type with more than maxMethods methods does too many things for
// one person to own; the evaluator's parts are units behind narrow interfaces instead.
func TestMethodsPerType(t *testing.T) {
	seen := map[string]bool{}
	for dir, files := range sources(t) {
		counts := map[string]int{}
		for _, f := range files {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil {
					counts[receiver(fn.Recv.List[0].Type)]++
				}
			}
		}
		for typ, n := range counts {
			name := strings.TrimPrefix(filepath.ToSlash(dir), "../../") + "." + typ
			budget, listed := methodBudgets[name]
			switch {
			case listed:
				seen[name] = true
				assert.LessOrEqual(t, n, budget, "%s has %d methods, over its budget", name, n)
				assert.Greater(t, n, maxMethods, "%s has %d methods: within %d, it leaves methodBudgets", name, n, maxMethods)
			default:
				assert.LessOrEqual(t, n, maxMethods, "%s has %d methods", name, n)
			}
		}
	}
	for name := range methodBudgets {
		assert.True(t, seen[name], "%s of methodBudgets is gone: drop it from the list", name)
	}
}

func receiver(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiver(x.X)
	case *ast.IndexExpr:
		return receiver(x.X)
	case *ast.IndexListExpr:
		return receiver(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

// TestCommentsSayWhatNotWhere: the compiler and the package name say where code lives; a
// comment that names a file to say so goes stale with the next move.
func TestCommentsSayWhatNotWhere(t *testing.T) {
	var found []string
	for dir, files := range sources(t) {
		for _, f := range files {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if pointer.MatchString(c.Text) && !strings.Contains(c.Text, "_test.go") {
						found = append(found, dir+": "+c.Text)
					}
				}
			}
		}
	}
	sort.Strings(found)
	assert.LessOrEqual(t, len(found), maxPointers, "comments naming a .go file:\n%s", strings.Join(found, "\n"))
}

// TestPackageSize: no package over 6,000 lines of non-test Go.
func TestPackageSize(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata" {
			return filepath.SkipDir
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		lines := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			lines += strings.Count(string(b), "\n")
		}
		assert.LessOrEqual(t, lines, 6000, "package %s has %d lines", path, lines)
		return nil
	})
	require.NoError(t, err)
}
