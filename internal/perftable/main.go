// Command perftable measures the figures of the performance table of docs/performance.md and rewrites
// the table between its markers (<!-- perf:begin --> and <!-- perf:end -->), each row
// with the commit, date and machine it was measured on:
//
//	go run ./internal/perftable [-benchtime 300ms] [-count 3] [-only REGEXP] [-dirty]
//
// The rows are the table rows: benchmarks (go test -bench, the median of -count
// runs; a row may name a sub-benchmark, the units of b.ReportMetric it shows, and its own
// -benchtime and -count), the API calls of the examples and the requests and writes of
// scenarios (simulate --stats), and the binaries of the image and the CLI. With
// -only, only the rows whose figure matches are measured; the others keep their cells.
// It measures the commit checked out and refuses uncommitted changes other than the
// table's, so that the commit a row names is the code measured (-dirty measures them
// anyway and says so). It is not run in CI: its numbers are the machine's.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

func main() {
	if err := perftable(); err != nil {
		fmt.Fprintln(os.Stderr, "perftable:", err)
		os.Exit(1)
	}
}

func perftable() error {
	benchtime := flag.String("benchtime", "300ms", "go test -benchtime of each benchmark")
	count := flag.Int("count", 3, "go test -count: the runs each benchmark's median is taken of")
	only := flag.String("only", "", "measure only the rows whose figure matches this regular expression")
	dirty := flag.Bool("dirty", false, "measure uncommitted changes too (the commit is marked +dirty)")
	flag.Parse()
	match, err := regexp.Compile(*only)
	if err != nil {
		return err
	}
	l := &lab{benchtime: *benchtime, count: *count}
	out, err := l.command(nil, "go", "env", "GOMOD")
	if err != nil {
		return err
	}
	l.root = filepath.Dir(strings.TrimSpace(string(out)))
	commit, err := l.commit(*dirty)
	if err != nil {
		return err
	}
	readmePath := filepath.Join(l.root, "docs", "performance.md")
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return err
	}
	cells, err := previous(readme)
	if err != nil {
		return err
	}
	if l.tmp, err = os.MkdirTemp("", "perftable"); err != nil {
		return err
	}
	defer os.RemoveAll(l.tmp)
	at := cell{commit: commit, date: time.Now().UTC().Format("2006-01-02"),
		machine: fmt.Sprintf("%s/%s, %d CPUs%s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), loadAverage())}
	table, err := l.measureAll(match, cells, at)
	if err != nil {
		return err
	}
	readme, err = rewrite(readme, table)
	if err != nil {
		return err
	}
	return os.WriteFile(readmePath, readme, 0o644)
}

// commit is the short SHA of HEAD; uncommitted changes (but docs/performance.md's) are refused,
// or with dirty marked.
func (l *lab) commit(dirty bool) (string, error) {
	out, err := l.command(nil, "git", "rev-parse", "--short", "HEAD")
	if err != nil {
		return "", err
	}
	sha := strings.TrimSpace(string(out))
	status, err := l.command(nil, "git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/performance.md")
	if err != nil {
		return "", err
	}
	if len(strings.TrimSpace(string(status))) == 0 {
		return sha, nil
	}
	if !dirty {
		return "", fmt.Errorf("uncommitted changes; commit them first, so that the table names the code it measured (or -dirty):\n%s", status)
	}
	return sha + "+dirty", nil
}

// measureAll measures the rows figure matches, keeps the cells of the others, and
// renders the table.
func (l *lab) measureAll(match *regexp.Regexp, old map[string]cell, at cell) (string, error) {
	var measured []row
	for _, r := range rows {
		if match.MatchString(r.figure) {
			measured = append(measured, r)
		}
	}
	results := map[string]benchResult{}
	for _, run := range l.benchRuns(measured) {
		fmt.Fprintf(os.Stderr, "benchmarks of ./%s: %s\n", run.dir, run.pattern())
		got, err := l.benchmarks(run)
		if err != nil {
			return "", err
		}
		for name, r := range got {
			results[name] = r
		}
	}
	cells := make([]cell, len(rows))
	for i, r := range rows {
		if !match.MatchString(r.figure) {
			c, ok := old[r.figure]
			if !ok {
				c = cell{value: "not measured", commit: "—", date: "—", machine: "—"}
			}
			cells[i] = c
			continue
		}
		c := at
		var err error
		switch {
		case r.bench != "":
			res, ok := results[r.bench]
			if !ok {
				return "", fmt.Errorf("go test ran no %s", r.bench)
			}
			c.value = res.String()
			if len(r.metrics) > 0 {
				c.value, err = res.show(r.metrics)
			}
		case r.scenario != "":
			fmt.Fprintf(os.Stderr, "simulate %s\n", r.scenario)
			c.value, err = l.scenario(r.scenario, r.changes)
		case r.example != "":
			fmt.Fprintf(os.Stderr, "simulate examples/%s\n", r.example)
			c.value, err = l.example(r.example)
		default:
			fmt.Fprintf(os.Stderr, "%s\n", r.measure)
			c.value, err = measures[r.measure](l)
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", r.figure, err)
		}
		cells[i] = c
	}
	return render(rows, cells), nil
}

// loadAverage is ", load N" with the machine's load average over the last minute, where
// the system tells it (/proc/loadavg): a loaded machine measures slower.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return ", load " + f[0]
}
