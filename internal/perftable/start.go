package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// imageStart starts the image's binary built for this machine 100 times, and an empty Go
// program built with the same flags as many times: what of the start is the machine's.
func imageStart(l *lab) (string, error) {
	bin, err := l.buildImage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return "", err
	}
	empty, err := l.buildEmpty()
	if err != nil {
		return "", err
	}
	image, err := starts(bin, "version")
	if err != nil {
		return "", err
	}
	base, err := starts(empty)
	if err != nil {
		return "", err
	}
	libs, err := l.buildLibraries()
	if err != nil {
		return "", err
	}
	floor, err := starts(libs)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (median %s); an empty Go program %s (median %s): %.1f×; "+
		"the libraries the action must use, linked into a program that does nothing, %s (median %s)",
		duration(image[0]), duration(median(image)), duration(base[0]), duration(median(base)), image[0]/base[0],
		duration(floor[0]), duration(median(floor))), nil
}

// starts runs bin with args 100 times and returns the durations, fastest first.
func starts(bin string, args ...string) ([]float64, error) {
	var ds []float64
	for range 100 {
		start := time.Now()
		if err := exec.Command(bin, args...).Run(); err != nil {
			return nil, fmt.Errorf("%s: %v", bin, err)
		}
		ds = append(ds, float64(time.Since(start)))
	}
	sort.Float64s(ds)
	return ds, nil
}

// buildEmpty builds a Go program that does nothing, as the release builds the image.
func (l *lab) buildEmpty() (string, error) {
	return l.buildProgram("empty", map[string]string{"go.mod": "module empty\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"})
}

// libraries are what the action's start cannot do without: the GitHub clients, the Actions
// toolkit, the expression language and the YAML parser the project is bound to use.
var libraries = []string{
	"github.com/expr-lang/expr",
	"github.com/google/go-github/v60/github",
	"github.com/sethvargo/go-githubactions",
	"github.com/shurcooL/githubv4",
	"gopkg.in/yaml.v3",
}

// buildLibraries builds a program that links the libraries and does nothing, against the
// repository's own go.mod and go.sum: the floor of the image's start.
func (l *lab) buildLibraries() (string, error) {
	mod, err := os.ReadFile(filepath.Join(l.root, "go.mod"))
	if err != nil {
		return "", err
	}
	sum, err := os.ReadFile(filepath.Join(l.root, "go.sum"))
	if err != nil {
		return "", err
	}
	_, rest, _ := strings.Cut(string(mod), "\n")
	main := "package main\n\nimport (\n"
	for _, p := range libraries {
		main += "\t_ \"" + p + "\"\n"
	}
	main += ")\n\nfunc main() {}\n"
	return l.buildProgram("libraries", map[string]string{"go.mod": "module libraries\n" + rest, "go.sum": string(sum), "main.go": main})
}

// buildProgram builds the module of files in a directory of its own, as the release
// builds the image.
func (l *lab) buildProgram(name string, files map[string]string) (string, error) {
	dir := filepath.Join(l.tmp, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for file, text := range files {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(l.tmp, name+"-program")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build of the %s program: %v\n%s", name, err, out)
	}
	return bin, nil
}
