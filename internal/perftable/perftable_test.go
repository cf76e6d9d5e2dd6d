package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const root = "../.."

// benchmarksIn parses the _test.go files of dir and returns the benchmarks they declare.
func benchmarksIn(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, dir, "*_test.go"))
	require.NoError(t, err)
	found := map[string]bool{}
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Benchmark") {
				found[fn.Name.Name] = true
			}
		}
	}
	return found
}

// Every row names one source that exists: a benchmark declared in its package's test
// files, an example directory, or a measurement of measures.
func TestRowsNameWhatExists(t *testing.T) {
	figures := map[string]bool{}
	for _, r := range rows {
		assert.False(t, figures[r.figure], "two rows measure %q", r.figure)
		figures[r.figure] = true
		assert.NotContains(t, r.figure+r.goal+r.read, "|", r.figure)
		assert.NotEmpty(t, r.goal, r.figure)
		assert.NotEmpty(t, r.read, r.figure)
		sources := 0
		if r.bench != "" {
			sources++
			dir, name, _ := splitBench(r.bench)
			assert.True(t, benchmarksIn(t, dir)[name], "%s: no func %s in %s/*_test.go", r.figure, name, dir)
		}
		if r.scenario != "" {
			sources++
			assert.FileExists(t, filepath.Join(root, r.scenario, "scenario.yaml"), r.figure)
		}
		if r.example != "" {
			sources++
			assert.FileExists(t, filepath.Join(root, "examples", r.example, "scenario.yaml"), r.figure)
		}
		if r.measure != "" {
			sources++
			assert.Contains(t, measures, r.measure, r.figure)
		}
		assert.Equal(t, 1, sources, "%s: one of bench, example, scenario and measure", r.figure)
	}
}

// docs/performance.md holds the table between its markers, with a line for every row, in order.
func TestReadmeHoldsTheTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "docs", "performance.md"))
	require.NoError(t, err)
	_, table, _, err := between(readme)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(table), tableHead), "run go run ./internal/perftable")
	var figures []string
	for _, line := range strings.Split(strings.TrimPrefix(string(table), tableHead), "\n") {
		if line != "" {
			figures = append(figures, strings.TrimPrefix(strings.Split(line, " | ")[0], "| "))
		}
	}
	var want []string
	for _, r := range rows {
		want = append(want, r.figure)
	}
	assert.Equal(t, want, figures, "the table of docs/performance.md is not the rows' (go run ./internal/perftable -only 'FIGURE' measures a new one)")
}

func TestRewriteKeepsWhatSurroundsTheTable(t *testing.T) {
	readme := []byte("# x\n\n" + beginMarker + "\n| old |\n" + endMarker + "\n\nafter\n")
	out, err := rewrite(readme, "| new |\n")
	require.NoError(t, err)
	assert.Equal(t, "# x\n\n"+beginMarker+"\n| new |\n"+endMarker+"\n\nafter\n", string(out))

	for _, bad := range []string{"no markers", endMarker + "\n" + beginMarker + "\n", beginMarker + "\n" + beginMarker + "\n" + endMarker} {
		_, err := rewrite([]byte(bad), "")
		assert.Error(t, err, bad)
	}
}

func TestPreviousCellsByFigure(t *testing.T) {
	rs := []row{{figure: "a", goal: "≤ 1", read: "r"}, {figure: "b", goal: "—", read: "r"}}
	cs := []cell{{"1 µs", "abc1234", "2026-01-02", "linux/amd64, 2 CPUs"}, {"2 GraphQL, 3 REST in 4 steps", "def5678", "2026-01-03", "darwin/arm64, 8 CPUs"}}
	readme := beginMarker + "\n" + render(rs, cs) + endMarker + "\n"
	got, err := previous([]byte(readme))
	require.NoError(t, err)
	assert.Equal(t, map[string]cell{"a": cs[0], "b": cs[1]}, got)
}

func TestParseBench(t *testing.T) {
	out := `goos: linux
BenchmarkStepWaitingGate-2   	   50000	     20100 ns/op	    4096 B/op	      80 allocs/op
BenchmarkStepWaitingGate-2   	   50000	     25300 ns/op	    4096 B/op	      80 allocs/op
BenchmarkStepWaitingGate-2   	   50000	     19800 ns/op	    4096 B/op	      81 allocs/op
BenchmarkDecode   	   1000	     71234 ns/op	 120.00 MB/s
PASS
`
	got := parseBench([]byte(out))
	assert.Equal(t, "20.1 µs, 80 allocs", got["BenchmarkStepWaitingGate"].String())
	assert.Equal(t, "71.2 µs", got["BenchmarkDecode"].String())
	assert.Equal(t, "1.50 ms", duration(1.5e6))
	assert.Equal(t, "312 ns", duration(312))
}

func TestParseStats(t *testing.T) {
	out := `API calls by step:
  step  1  open_pr #7 by dev into main (branch feat/login)     graphql 3, issues/create-comment 1, issues/update-comment 1
  step  2  check "test" on #7: success                         graphql 2, issues/update-comment 1
  total                                                        git/delete-ref 1, graphql 5, issues/create-comment 1, issues/update-comment 2

PASS: every expectation holds
`
	got, err := parseStats([]byte(out))
	require.NoError(t, err)
	assert.Equal(t, "5 GraphQL, 4 REST in 2 steps", got)
	_, err = parseStats([]byte("FAIL\n"))
	assert.Error(t, err)
}
