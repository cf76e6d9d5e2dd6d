package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseBenchMetrics(t *testing.T) {
	out := `BenchmarkSweepEverythingDue-2   	       1	 912345678 ns/op	        60.00 writes/sweep	       970.0 subjects-left	     41234 largest-shard-bytes
BenchmarkIndexWrite/migrate-1000-2   	       5	   1234 ns/op	      2048 index-bytes/save
BenchmarkLongScenario/steps=1200-2   	       1	41234567890 ns/op
`
	got := parseBench([]byte(out))
	s, err := got["BenchmarkSweepEverythingDue"].show([]string{"writes/sweep", "subjects-left", "largest-shard-bytes"})
	require.NoError(t, err)
	assert.Equal(t, "60 writes/sweep, 970 subjects-left, 41234 largest-shard-bytes", s)
	s, err = got["BenchmarkIndexWrite/migrate-1000"].show([]string{"index-bytes/save"})
	require.NoError(t, err)
	assert.Equal(t, "2048 index-bytes/save", s)
	s, err = got["BenchmarkLongScenario/steps=1200"].show([]string{"ns/op"})
	require.NoError(t, err)
	assert.Equal(t, "41.2 s", s)
	_, err = got["BenchmarkLongScenario/steps=1200"].show([]string{"writes/sweep"})
	assert.Error(t, err, "a unit the benchmark did not report")
}

// Benchmarks of one package with the same flags run together; one with its own
// benchtime, or naming a sub-benchmark, runs alone.
func TestBenchRuns(t *testing.T) {
	l := &lab{benchtime: "300ms", count: 3}
	runs := l.benchRuns([]row{
		{bench: "engine/BenchmarkA"}, {bench: "state/BenchmarkB"}, {bench: "engine/BenchmarkC"},
		{bench: "engine/BenchmarkD", benchtime: "1x"},
		{bench: "engine/lang/load/BenchmarkE/steps=1200", benchtime: "1x", count: 1},
		{bench: "engine/lang/load/BenchmarkE/steps=300", benchtime: "1x", count: 1},
		{example: "auto-merge"},
	})
	type got struct {
		dir, pattern, benchtime string
		count                   int
	}
	var gs []got
	for _, r := range runs {
		gs = append(gs, got{r.dir, r.pattern(), r.benchtime, r.count})
	}
	assert.Equal(t, []got{
		{"engine", "^(BenchmarkA|BenchmarkC)$", "300ms", 3},
		{"state", "^(BenchmarkB)$", "300ms", 3},
		{"engine", "^(BenchmarkD)$", "1x", 3},
		{"engine/lang/load", "^(BenchmarkE)$/^steps=1200$", "1x", 1},
		{"engine/lang/load", "^(BenchmarkE)$/^steps=300$", "1x", 1},
	}, gs)
}

func TestParseRequests(t *testing.T) {
	out := []byte("  total      graphql 8, issues/update-comment 3\n  13 requests, 9 content-creating (REST writes and GraphQL mutations)\n\nPASS\n")
	got, err := parseRequests(out, 5)
	require.NoError(t, err)
	assert.Equal(t, "13 requests, 9 content-creating (1.8 per state change)", got)
	got, err = parseRequests(out, 0)
	require.NoError(t, err)
	assert.Equal(t, "13 requests, 9 content-creating", got)
	_, err = parseRequests([]byte("FAIL\n"), 5)
	assert.Error(t, err)
	got, err = parseRequests(append(out[:len(out)-6:len(out)-6], "  13 in a row over the steps (the most in one step: 6)\n\nPASS\n"...), 0)
	require.NoError(t, err)
	assert.Equal(t, "13 requests, 9 content-creating; 13 in a row (the most in one event: 6)", got)
	steps := "  step  1  open_pr #7     graphql 2, issues/create-comment 1 · 3 in a row\n  step  2  label #7     graphql 1 · 1 in a row\n" +
		"  step  3  review #7 (nothing sent)\n" + string(out[:len(out)-6]) + "  4 in a row over the steps (the most in one step: 3)\n"
	got, err = parseRequests([]byte(steps), 0)
	require.NoError(t, err)
	assert.Equal(t, "13 requests, 9 content-creating; 4 in a row (by event: 3, 1; the most in one event: 3)", got)
}

func TestRatioText(t *testing.T) {
	assert.Equal(t, "2.09× its floor (25.3 ms against 12.1 ms)", ratioText(benchResult{nsPerOp: 25.3e6}, benchResult{nsPerOp: 12.1e6}))
}
