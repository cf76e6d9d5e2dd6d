package main

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// benchResult is a benchmark's medians: its time, and every other figure its lines print
// (B/op, allocs/op and the units of b.ReportMetric), by unit.
type benchResult struct {
	nsPerOp float64
	metrics map[string]float64
}

// String is the time and the allocations per op, where measured.
func (r benchResult) String() string {
	s := duration(r.nsPerOp)
	if a, ok := r.metrics["allocs/op"]; ok {
		s += fmt.Sprintf(", %.0f allocs", a)
	}
	return s
}

// show is the units of r a row names, in its order; "ns/op" is the time.
func (r benchResult) show(units []string) (string, error) {
	var parts []string
	for _, u := range units {
		if u == "ns/op" {
			parts = append(parts, duration(r.nsPerOp))
			continue
		}
		v, ok := r.metrics[u]
		if !ok {
			return "", fmt.Errorf("the benchmark reported no %q", u)
		}
		parts = append(parts, strconv.FormatFloat(v, 'f', -1, 64)+" "+u)
	}
	return strings.Join(parts, ", "), nil
}

// duration prints ns with three significant digits in the unit that fits.
func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return strconv.FormatFloat(ns/1e9, 'f', digits(ns/1e9), 64) + " s"
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

// benchRun is one go test -bench: benchmarks of one package measured with the same flags.
// A benchmark that names a sub-benchmark runs alone, since go test's pattern filters each
// level of names for all benchmarks at once.
type benchRun struct {
	dir, sub  string
	names     []string
	benchtime string
	count     int
	env       []string // the environment go test runs with, besides the machine's
}

// benchRuns groups the benchmarks of rows into the go test runs that measure them.
func (l *lab) benchRuns(rs []row) []*benchRun {
	var runs []*benchRun
	byKey := map[string]*benchRun{}
	for _, r := range rs {
		if r.bench == "" {
			continue
		}
		dir, name, sub := splitBench(r.bench)
		run := &benchRun{dir: dir, sub: sub, names: []string{name}, benchtime: l.benchtime, count: l.count}
		if r.benchtime != "" {
			run.benchtime = r.benchtime
		}
		if r.count != 0 {
			run.count = r.count
		}
		key := fmt.Sprintf("%s %s %d", dir, run.benchtime, run.count)
		if prev, ok := byKey[key]; ok && sub == "" {
			prev.names = append(prev.names, name)
			continue
		}
		if sub == "" {
			byKey[key] = run
		}
		runs = append(runs, run)
	}
	return runs
}

// splitBench splits "dir/BenchmarkX" or "dir/BenchmarkX/sub" into its package directory,
// the benchmark and the sub-benchmark ("" if none).
func splitBench(bench string) (dir, name, sub string) {
	parts := strings.Split(bench, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "Benchmark") {
			return filepath.Join(parts[:i]...), p, strings.Join(parts[i+1:], "/")
		}
	}
	return filepath.Dir(bench), filepath.Base(bench), ""
}

// pattern is run's -bench pattern.
func (run *benchRun) pattern() string {
	p := "^(" + strings.Join(run.names, "|") + ")$"
	if run.sub != "" {
		p += "/^" + regexp.QuoteMeta(run.sub) + "$"
	}
	return p
}

// benchmarks runs run and returns the median of each benchmark, by row's bench
// ("dir/BenchmarkX" or "dir/BenchmarkX/sub").
func (l *lab) benchmarks(run *benchRun) (map[string]benchResult, error) {
	out, err := l.command(run.env, "go", "test", "-run", "^$", "-bench", run.pattern(), "-benchmem",
		"-benchtime", run.benchtime, "-count", strconv.Itoa(run.count), "./"+run.dir)
	if err != nil {
		return nil, err
	}
	res := map[string]benchResult{}
	for name, r := range parseBench(out) {
		res[run.dir+"/"+name] = r
	}
	return res, nil
}

var (
	benchLine   = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)
	metricField = regexp.MustCompile(`([\d.]+(?:e[+-]?\d+)?) (\S+)`)
)

// parseBench reads go test -bench output: the median ns/op and median of every other
// unit of each benchmark.
func parseBench(out []byte) map[string]benchResult {
	ns, metrics := map[string][]float64{}, map[string]map[string][]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[3], 64)
		ns[m[1]] = append(ns[m[1]], v)
		if metrics[m[1]] == nil {
			metrics[m[1]] = map[string][]float64{}
		}
		for _, f := range metricField.FindAllStringSubmatch(m[4], -1) {
			fv, _ := strconv.ParseFloat(f[1], 64)
			metrics[m[1]][f[2]] = append(metrics[m[1]][f[2]], fv)
		}
	}
	res := map[string]benchResult{}
	for name, vs := range ns {
		r := benchResult{nsPerOp: median(vs), metrics: map[string]float64{}}
		for unit, us := range metrics[name] {
			r.metrics[unit] = median(us)
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
