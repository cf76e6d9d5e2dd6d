package load

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The loader grows with the language; these bounds keep it in parts a reader can hold:
// a type with more methods than maxMethods, or a package past maxPackageLines, is a
// feature that wants its own type or package.
const (
	maxMethods      = 40
	maxPackageLines = 5000
)

// TestLoaderStaysInParts holds the bounds over this package and the packages under it
// (non-test files only).
func TestLoaderStaysInParts(t *testing.T) {
	lines := map[string]int{}              // per directory
	methods := map[string]map[string]int{} // per directory, per receiver type
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		lines[dir] += bytes.Count(src, []byte("\n"))
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv != nil && len(fn.Recv.List) == 1 {
				if methods[dir] == nil {
					methods[dir] = map[string]int{}
				}
				methods[dir][receiverName(fn.Recv.List[0].Type)]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 || len(methods["."]) == 0 {
		t.Fatal("no source found")
	}
	for dir, n := range lines {
		if n > maxPackageLines {
			t.Errorf("package %s has %d lines; at most %d", dir, n, maxPackageLines)
		}
	}
	for dir, types := range methods {
		for typ, n := range types {
			if n > maxMethods {
				t.Errorf("type %s of package %s has %d methods; at most %d", typ, dir, n, maxMethods)
			}
		}
	}
}

// receiverName is the name of the type of a method's receiver: T for T, *T, T[X] and *T[X].
func receiverName(x ast.Expr) string {
	for {
		switch r := x.(type) {
		case *ast.StarExpr:
			x = r.X
		case *ast.IndexExpr:
			x = r.X
		case *ast.IndexListExpr:
			x = r.X
		case *ast.Ident:
			return r.Name
		default:
			return "?"
		}
	}
}
