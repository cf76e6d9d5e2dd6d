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
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
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
	"image size":  imageSize,
	"image start": imageStart,
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

// benchResult is a benchmark's medians.
type benchResult struct {
	nsPerOp, allocs float64
	hasAllocs       bool
}

func (r benchResult) String() string {
	s := duration(r.nsPerOp)
	if r.hasAllocs {
		s += fmt.Sprintf(", %.0f allocs", r.allocs)
	}
	return s
}

// duration prints ns with three significant digits in the unit that fits.
func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'f', digits(ns/1e6), 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'f', digits(ns/1e3), 64) + " µs"
	}
	return strconv.FormatFloat(ns, 'f', digits(ns), 64) + " ns"
}

func digits(v float64) int {
	switch {
	case v >= 100:
		return 0
	case v >= 10:
		return 1
	}
	return 2
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)
var allocsField = regexp.MustCompile(`([\d.]+) allocs/op`)

// benchmarks runs the benchmarks of one package (its directory) and returns the
// median of each, by name.
func (l *lab) benchmarks(dir string, names []string) (map[string]benchResult, error) {
	out, err := l.command(nil, "go", "test", "-run", "^$", "-bench", "^("+strings.Join(names, "|")+")$",
		"-benchtime", l.benchtime, "-count", strconv.Itoa(l.count), "./"+dir)
	if err != nil {
		return nil, err
	}
	return parseBench(out), nil
}

// parseBench reads go test -bench output: the median ns/op and allocs/op of each benchmark.
func parseBench(out []byte) map[string]benchResult {
	ns, allocs := map[string][]float64{}, map[string][]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[3], 64)
		ns[m[1]] = append(ns[m[1]], v)
		if a := allocsField.FindStringSubmatch(m[4]); a != nil {
			av, _ := strconv.ParseFloat(a[1], 64)
			allocs[m[1]] = append(allocs[m[1]], av)
		}
	}
	res := map[string]benchResult{}
	for name, vs := range ns {
		r := benchResult{nsPerOp: median(vs)}
		if as := allocs[name]; len(as) > 0 {
			r.allocs, r.hasAllocs = median(as), true
		}
		res[name] = r
	}
	return res
}

func median(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// example plays examples/dir with simulate --stats and returns its total of API calls.
func (l *lab) example(dir string) (string, error) {
	if l.cli == "" {
		bin := filepath.Join(l.tmp, "pipeline-action")
		if _, err := l.command(nil, "go", "build", "-o", bin, "./cmd/pipeline-action"); err != nil {
			return "", err
		}
		l.cli = bin
	}
	out, err := l.command(nil, l.cli, "simulate", path.Join("examples", dir), "--stats")
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
	bin := filepath.Join(l.tmp, "image-"+goos+"-"+goarch)
	_, err := l.command([]string{"CGO_ENABLED=0", "GOOS=" + goos, "GOARCH=" + goarch},
		"go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/pipeline-action-image")
	return bin, err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func imageSize(l *lab) (string, error) {
	bin, err := l.buildImage("linux", "amd64")
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

// imageStart starts the image's binary built for this machine 100 times.
func imageStart(l *lab) (string, error) {
	bin, err := l.buildImage(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		return "", err
	}
	var ds []float64
	for range 100 {
		start := time.Now()
		if err := exec.Command(bin, "version").Run(); err != nil {
			return "", fmt.Errorf("%s version: %v", bin, err)
		}
		ds = append(ds, float64(time.Since(start)))
	}
	sort.Float64s(ds)
	return fmt.Sprintf("%s (median %s)", duration(ds[0]), duration(median(ds))), nil
}
