// Package schemafile finds the project's copy of GitHub's GraphQL schema.
package schemafile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Path is where the project keeps GitHub's schema, relative to the root of its module.
var Path = filepath.Join("testdata", "github", "graphql", "schema.graphql")

// modulePath is this project's module, as its go.mod declares it.
const modulePath = "github.com/org/pipeline-action"

// Find locates GitHub's full schema.graphql: the environment variable env (used as given, so a wrong path
// is an error rather than a silent fallback), else testdata/github/graphql/schema.graphql at the
// root of this project's module, found from this source file or from the working directory (the
// nearest directory above with a go.mod, which must declare this module, so that another
// project's testdata is never taken). ok is false when neither is there.
func Find(env string) (path string, ok bool) {
	if p := os.Getenv(env); p != "" {
		return p, true
	}
	var starts []string
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		root, ok := moduleRoot(dir)
		if !ok {
			continue
		}
		p := filepath.Join(root, Path)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// moduleRoot is the nearest directory at or above dir with a go.mod, if that go.mod declares this
// project's module.
func moduleRoot(dir string) (string, bool) {
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			return dir, modfileDeclares(b, modulePath)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// modfileDeclares reports whether the go.mod text b declares module mod.
func modfileDeclares(b []byte, mod string) bool {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" && strings.Trim(f[1], `"`) == mod {
			return true
		}
	}
	return false
}
