package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// lab is where the measurements run: the module's root, a directory for the binaries
// they build, and the go test flags of the benchmarks.
type lab struct {
	root, tmp string
	benchtime string
	count     int
	cli       string // the CLI built for simulate, once
}

// measures are the measurements rows name in their measure field.
var measures = map[string]func(*lab) (string, error){
	"image size":       binarySize("./cmd/pipeline-action-image", "amd64"),
	"image size arm64": binarySize("./cmd/pipeline-action-image", "arm64"),
	"cli size":         binarySize("./cmd/pipeline-action", "amd64"),
	"cli size arm64":   binarySize("./cmd/pipeline-action", "arm64"),
	"image start":      imageStart,
	"load ratio":       floorRatio("engine/lang/load", "BenchmarkLoadToRun50x10", "BenchmarkYAMLParse50x10"),
	// One event's process steps once, allocating a few KB: no collection runs during its
	// step. A benchmark loop steps millions of times, and its garbage makes the collector
	// mark the live config over and over, a cost that grows with the config and that no
	// event pays. With the collector held off until 64 MiB (off altogether, every op would
	// fault in fresh pages, which measures the kernel) the two measure the step.
	"gate 1000 to 10": floorRatio("engine", "BenchmarkStepWaitingAtGate1Of1000", "BenchmarkStepWaitingAtGate1Of10", "GOGC=off", "GOMEMLIMIT=64MiB"),
}

// command runs name in the module's root with env added, and returns its standard output.
func (l *lab) command(env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = l.root
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out, nil
}

// simulate plays dir (from the module's root) with simulate --stats and returns what it
// printed.
func (l *lab) simulate(dir string) ([]byte, error) {
	if l.cli == "" {
		bin := filepath.Join(l.tmp, "pipeline-action")
		if _, err := l.command(nil, "go", "build", "-o", bin, "./cmd/pipeline-action"); err != nil {
			return nil, err
		}
		l.cli = bin
	}
	return l.command(nil, l.cli, "simulate", dir, "--stats")
}

// example plays examples/dir with simulate --stats and returns its total of API calls.
func (l *lab) example(dir string) (string, error) {
	out, err := l.simulate(path.Join("examples", dir))
	if err != nil {
		return "", err
	}
	return parseStats(out)
}

var (
	statsStep  = regexp.MustCompile(`^  step\s+\d+\s`)
	statsTotal = regexp.MustCompile(`^  total\s`)
	statsCall  = regexp.MustCompile(`(\S+) (\d+)(?:,|$)`)
)

// parseStats reads the "API calls by step" of simulate --stats: the steps, and the
// total's GraphQL calls and REST calls (every other kind).
func parseStats(out []byte) (string, error) {
	steps, graphql, rest, total := 0, 0, 0, false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case statsStep.MatchString(line):
			steps++
		case statsTotal.MatchString(line):
			total = true
			for _, m := range statsCall.FindAllStringSubmatch(line, -1) {
				n, _ := strconv.Atoi(m[2])
				if m[1] == "graphql" {
					graphql += n
				} else {
					rest += n
				}
			}
		}
	}
	if !total {
		return "", fmt.Errorf("simulate --stats printed no total:\n%s", out)
	}
	return fmt.Sprintf("%d GraphQL, %d REST in %d %s", graphql, rest, steps, plural(steps, "step", "steps")), nil
}

// buildImage builds cmd/pipeline-action-image with the release's flags (.ci/build-binaries).
func (l *lab) buildImage(goos, goarch string) (string, error) {
	return l.buildRelease("./cmd/pipeline-action-image", goos, goarch)
}

// buildRelease builds the binary of package main with the release's flags
// (.ci/build-binaries).
func (l *lab) buildRelease(main, goos, goarch string) (string, error) {
	bin := filepath.Join(l.tmp, path.Base(main)+"-"+goos+"-"+goarch)
	_, err := l.command([]string{"CGO_ENABLED=0", "GOOS=" + goos, "GOARCH=" + goarch},
		"go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, main)
	return bin, err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// binarySize measures the binary of package main built for linux/goarch as the release
// builds it: its size, and gzipped at the fastest level, as ko compresses the layer a job
// pulls.
func binarySize(main, goarch string) func(*lab) (string, error) {
	return func(l *lab) (string, error) {
		bin, err := l.buildRelease(main, "linux", goarch)
		if err != nil {
			return "", err
		}
		b, err := os.ReadFile(bin)
		if err != nil {
			return "", err
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
		w.Write(b)
		w.Close()
		return fmt.Sprintf("%s (%s gzipped)", mib(len(b)), mib(z.Len())), nil
	}
}
