package run

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

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
