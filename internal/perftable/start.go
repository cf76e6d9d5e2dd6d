package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
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
	return fmt.Sprintf("%s (median %s); an empty Go program %s (median %s): %.1f×",
		duration(image[0]), duration(median(image)), duration(base[0]), duration(median(base)), image[0]/base[0]), nil
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
	dir := filepath.Join(l.tmp, "empty")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for name, text := range map[string]string{"go.mod": "module empty\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(l.tmp, "empty-program")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build of an empty program: %v\n%s", err, out)
	}
	return bin, nil
}
