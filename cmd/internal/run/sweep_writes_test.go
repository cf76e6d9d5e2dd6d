package run

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/ghfake/faketest"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sweepConfig starts, on each pull request, a run that waits an hour for a label.
const sweepConfig = `version: 1
pipelines:
  signoff:
    trigger: {event: pull_request.opened}
    stages:
      - id: signoff
        type: gate
        conditions:
          - {check: label_present, label: signed-off}
        timeout: 1h
        on_pass: merge
      - id: merge
        type: action
        action: merge_pr
`

// sweepWorld is a fake GitHub whose repository has n pull requests, each with one run
// waiting at signoff until an hour after t0.
func sweepWorld(tb testing.TB, n int, t0 time.Time) *ghfake.Server {
	tb.Helper()
	f := faketest.New(tb)
	f.AddRepo("acme/widgets", "main")
	f.AddUser("dev", "write")
	f.SetFile("acme/widgets", "main", DefaultConfigPath, sweepConfig)
	dir := tb.TempDir()
	for i := 1; i <= n; i++ {
		ev := f.OpenPR("acme/widgets", ghfake.PROptions{Number: i, Author: "dev", Head: fmt.Sprintf("feat/%d", i)})
		env := runtest.Job(tb, f, dir, i, ev, f.BotToken())
		var log bytes.Buffer
		at := t0.Add(time.Duration(i) * time.Millisecond)
		r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: func() time.Time { return at }}
		require.Equal(tb, 0, r.Run(context.Background()), log.String())
	}
	return f
}

// sweepAt runs one sweep at now with the inputs given, and returns its exit code, its log
// and the content-creating requests it made.
func sweepAt(tb testing.TB, f *ghfake.Server, now time.Time, inputs map[string]string) (int, string, int) {
	tb.Helper()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "schedule", "GITHUB_REF_NAME": "main",
		"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_RUN_ID": "9000", "GITHUB_STEP_SUMMARY": filepath.Join(tb.TempDir(), "summary"),
		"GITHUB_API_URL": f.URL + "/api/v3", "GITHUB_GRAPHQL_URL": f.URL + "/api/graphql", "INPUT_TOKEN": f.BotToken()}
	for k, v := range inputs {
		env["INPUT_"+k] = v
	}
	f.ResetStats()
	var log bytes.Buffer
	r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: func() time.Time { return now }}
	code := r.Sweep(context.Background())
	writes := 0
	for _, c := range f.Calls() {
		if c.Mutation || c.Kind != "graphql" && c.Method != "GET" && c.Method != "HEAD" {
			writes++
		}
	}
	if summary, err := os.ReadFile(env["GITHUB_STEP_SUMMARY"]); err == nil {
		log.WriteString("\njob summary:\n" + string(summary))
	}
	return code, log.String(), writes
}

// listOpenRuns adds to the index on f's state branch the runs of pull requests from..to,
// waiting at signoff until an hour after t0 and a little later each, in one commit of
// the action's identity: the subjects a sweep within its budget never reaches need no
// more.
func listOpenRuns(tb testing.TB, f *ghfake.Server, from, to int, t0 time.Time) {
	tb.Helper()
	ctx := context.Background()
	c := botClient(tb, f)
	read, err := c.OpenRuns(ctx, lang.DefaultStateBranch)
	require.NoError(tb, err)
	shards := map[string]*state.Index{}
	for _, sh := range read.Shards {
		idx, err := state.DecodeIndex(sh.Text)
		require.NoError(tb, err)
		shards[sh.Path] = idx
	}
	for n := from; n <= to; n++ {
		file := state.SubjectFile(true, n)
		p := state.ShardFile(file)
		if shards[p] == nil {
			shards[p] = &state.Index{}
		}
		shards[p].Runs = append(shards[p].Runs, state.IndexEntry{Run: fmt.Sprintf("signoff/%d/1", n), Pipeline: "signoff",
			Subject: fmt.Sprintf("acme/widgets#%d", n), File: file, Status: "waiting", Stage: "signoff", Updated: t0,
			NextDeadline: t0.Add(time.Hour + time.Duration(n)*time.Millisecond)})
	}
	var files []state.FileChange
	for p, idx := range shards {
		text, err := state.EncodeIndex(idx)
		require.NoError(tb, err)
		files = append(files, state.FileChange{Path: p, Text: text})
	}
	_, err = c.CommitFiles(ctx, lang.DefaultStateBranch, read.Head, files, "list open runs", "")
	require.NoError(tb, err)
}

// BenchmarkSweepEverythingDue reports, with every one of 1,000 open runs due and
// sweep_budget 1000 (no bound on subjects), the content writes of one sweep with the
// default sweep_writes, the subjects it leaves due, and the largest shard of the index.
func BenchmarkSweepEverythingDue(b *testing.B) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var writes, left, largest int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f := sweepWorld(b, 40, t0)
		listOpenRuns(b, f, 41, 1000, t0)
		b.StartTimer()
		code, log, w := sweepAt(b, f, t0.Add(2*time.Hour), map[string]string{"SWEEP_BUDGET": "1000"})
		require.Equal(b, 0, code, log)
		require.LessOrEqual(b, w, defaultSweepWrites, log)
		m := regexp.MustCompile(`(\d+) subjects \(\d+ runs\) left due for the next sweep`).FindStringSubmatch(log)
		require.NotNil(b, m, log)
		left, _ = strconv.Atoi(m[1])
		writes = w
		largest = 0
		for p, text := range f.BranchFiles("acme/widgets", lang.DefaultStateBranch) {
			if state.IsIndexFile(p) {
				largest = max(largest, len(text))
			}
		}
	}
	b.ReportMetric(float64(writes), "writes/sweep")
	b.ReportMetric(float64(left), "subjects-left")
	b.ReportMetric(float64(largest), "largest-shard-bytes")
}

// A sweep with more due than its write budget advances the oldest deadlines first, makes
// no more content writes than sweep_writes, and says in its log and job summary what it
// left due.
func TestSweepStopsWithinItsWriteBudget(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	f := sweepWorld(t, 30, t0)
	code, log, writes := sweepAt(t, f, t0.Add(2*time.Hour), map[string]string{"SWEEP_WRITES": "11"})
	require.Equal(t, 0, code, log)
	assert.LessOrEqual(t, writes, 11)
	assert.Equal(t, 11, writes, "five subjects, a commit and a comment each, and the record of the sweep's writes")
	assert.Contains(t, log, "advanced 5 of 30 due subjects with 10 content writes (sweep_writes 11, sweep_budget 20); "+
		"25 subjects (25 runs) left due for the next sweep, sweep_writes 11: 10 content writes made, and a subject takes up to 2, "+
		"the oldest due since 2026-01-05T10:00:00Z: #6, #7, #8, #9, #10, #11, #12, #13, #14, #15, and 15 more")
	assert.Contains(t, log, "job summary:\n## Sweep\n\nAdvanced 5 of 30 due subjects")
	for n := 1; n <= 30; n++ {
		want := "failed"
		if n > 5 {
			want = "waiting"
		}
		assert.Equal(t, want, runStatus(t, f, n), "#%d", n)
	}
	// The next sweep takes the next five.
	_, log, _ = sweepAt(t, f, t0.Add(2*time.Hour+15*time.Minute), map[string]string{"SWEEP_WRITES": "11"})
	assert.Contains(t, log, "advanced 5 of 25 due subjects")
	assert.Equal(t, "failed", runStatus(t, f, 10))
	assert.Equal(t, "waiting", runStatus(t, f, 11))
}

// With sweep_writes above GitHub's 80 a minute, the sweep waits for the minute to pass
// rather than meet the secondary limit.
func TestSweepKeepsToEightyWritesAMinute(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	f := sweepWorld(t, 45, t0)
	now := t0.Add(2 * time.Hour)
	f.SetClock(func() time.Time { return now })
	f.EnforceSecondaryLimits()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "schedule", "GITHUB_REF_NAME": "main",
		"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_API_URL": f.URL + "/api/v3", "GITHUB_GRAPHQL_URL": f.URL + "/api/graphql",
		"INPUT_TOKEN": f.BotToken(), "INPUT_SWEEP_WRITES": "200", "INPUT_SWEEP_BUDGET": "100", "INPUT_TIMEOUT": "1h"}
	var log bytes.Buffer
	r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: func() time.Time { return now },
		Sleep: func(_ context.Context, d time.Duration) error { now = now.Add(d); return nil }}
	require.Equal(t, 0, r.Sweep(t.Context()), log.String())
	assert.Contains(t, log.String(), "content writes in the last minute; waiting")
	assert.NotContains(t, log.String(), "secondary rate limit")
	assert.Contains(t, log.String(), "advanced 45 of 45 due subjects with 90 content writes")
}

// runStatus is the status of pull request n's run, from its state file on the branch.
func runStatus(t *testing.T, f *ghfake.Server, n int) string {
	t.Helper()
	files := f.BranchFiles("acme/widgets", lang.DefaultStateBranch)
	st, err := state.DecodeFile(files[state.SubjectFile(true, n)], fmt.Sprintf("acme/widgets#%d", n))
	require.NoError(t, err)
	require.Len(t, st.Runs, 1)
	return string(st.Runs[0].Status)
}

// Sweeps every five minutes with 150 pull requests due make, in any hour, no more than
// the sweeps' hourly budget of content writes (the index records what each made), where
// twelve sweeps of 60 would make 720 against GitHub's 500; what they leave due is swept in
// the next hour, and every run is advanced in the end.
func TestSweepsOfAnHourKeepToTheHourlyBudget(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	const n = 150
	f := sweepWorld(t, n, t0)
	type sweep struct {
		at     time.Time
		writes int
	}
	var sweeps []sweep
	stoppedForTheHour := false
	start := t0.Add(2 * time.Hour)
	for i := 0; i < 30; i++ {
		now := start.Add(time.Duration(i) * 5 * time.Minute)
		code, log, writes := sweepAt(t, f, now, nil)
		require.Equal(t, 0, code, log)
		assert.LessOrEqual(t, writes, defaultSweepWrites, "one sweep keeps to sweep_writes, its record included")
		sweeps = append(sweeps, sweep{now, writes})
		inHour := 0
		for _, s := range sweeps {
			if now.Sub(s.at) < time.Hour {
				inHour += s.writes
			}
		}
		require.LessOrEqual(t, inHour, sweepWritesHour, "the sweeps of the hour up to %s", now.Format(time.RFC3339))
		if i < 12 && writes == 0 {
			assert.Contains(t, log, "left due for the next sweep, the sweeps of the last hour made")
			stoppedForTheHour = true
		}
	}
	assert.True(t, stoppedForTheHour, "the first hour's sweeps left subjects due for the next hour")
	firstHour := 0
	for _, s := range sweeps[:12] {
		firstHour += s.writes
	}
	assert.Greater(t, firstHour, sweepWritesHour-5, "the hour's budget is used, not wasted")
	for i := 1; i <= n; i++ {
		assert.Equal(t, "failed", runStatus(t, f, i), "#%d timed out, swept in the end", i)
	}
	log, err := state.DecodeSweepLog(f.BranchFiles("acme/widgets", lang.DefaultStateBranch)[state.SweepLogFile])
	require.NoError(t, err)
	var last time.Time // the last sweep that wrote, and so recorded
	for _, s := range sweeps {
		if s.writes > 0 {
			last = s.at
		}
	}
	spent, _ := log.Spent(last)
	assert.Positive(t, spent, "the record holds the last hour's sweeps")
	for _, s := range log.Sweeps {
		assert.Less(t, last.Sub(s.At), time.Hour, "older sweeps leave the record")
	}
	t.Logf("writes of each sweep, every 5 minutes: %v", func() (w []int) {
		for _, s := range sweeps {
			w = append(w, s.writes)
		}
		return w
	}())
}

// A record of the hour's sweeps that someone else wrote is not counted.
func TestSweepLogNotTheActionsIsNotCounted(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	f := sweepWorld(t, 3, t0)
	f.SetFile("acme/widgets", lang.DefaultStateBranch, state.SweepLogFile,
		`{"version": 1, "sweeps": [{"at": "2026-01-05T10:59:00Z", "writes": 240}]}`) // pushed by the repository's owner
	code, log, writes := sweepAt(t, f, t0.Add(2*time.Hour), nil)
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "the record of the last hour's sweeps is not trusted")
	assert.Equal(t, 7, writes, "three subjects and the record")
}

// A sweep that meets GitHub's rate limit, spent until the hour ends, stops there: the
// subjects after it would meet it too. The first sweep after the reset advances them.
func TestSweepStopsAtARateLimit(t *testing.T) {
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	f := sweepWorld(t, 5, t0)
	now := t0.Add(2 * time.Hour)
	f.SetClock(func() time.Time { return now })
	f.EnforcePrimaryLimits(ghfake.TokenGitHub)
	f.SpendPrimary(ghfake.BotLogin, "core", 1000) // GITHUB_TOKEN's REST requests of the hour
	code, log, _ := sweepAt(t, f, now, nil)
	assert.Equal(t, 1, code, log)
	assert.Contains(t, log, "advanced 1 of 5 due subjects")
	assert.Contains(t, log, "4 subjects (4 runs) left due for the next sweep, GitHub's rate limit refused a request")
	now = now.Add(time.Hour)
	code, log, _ = sweepAt(t, f, now, nil)
	assert.Equal(t, 0, code, log)
	assert.Contains(t, log, "advanced 4 of 4 due subjects")
	for i := 1; i <= 5; i++ {
		assert.Equal(t, "failed", runStatus(t, f, i), "#%d timed out", i)
	}
}
