package sim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// busyHour is a scenario of prs pull requests going through examples/auto-merge's
// lifecycle (opened, CI green, approved, merged) within one hour of the scenario's clock,
// with GitHub's primary rate limits counted for token (github or app).
func busyHour(prs int, token string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "repo: acme/widgets\nconfig: pipelines.yaml\nusers: {alice: write, dev: write}\ntoken: %s\nprimary_limits: true\n", token)
	fmt.Fprintf(&b, "tick: %s\nsteps:\n", (50 * time.Minute / time.Duration(3*prs)).Truncate(time.Second))
	for n := 1; n <= prs; n++ {
		fmt.Fprintf(&b, "  - open_pr: {number: %d, author: dev, head: feat/%d}\n", n, n)
		fmt.Fprintf(&b, "  - check: {pr: %d, name: test, conclusion: success}\n", n)
		fmt.Fprintf(&b, "  - review: {pr: %d, user: alice, state: approved}\n", n)
	}
	b.WriteString("expect:\n  prs:\n")
	for n := 1; n <= prs; n++ {
		fmt.Fprintf(&b, "    %d: {merged: true}\n", n)
	}
	return b.String()
}

// TestBusyHourOnEachToken plays a busy hour on each kind of token and measures what one
// event costs of GitHub's primary limits (REST requests, GraphQL points by GitHub's
// formula, as the fake counts them), hence how many events an hour a repository sustains
// on it: docs/performance.md states the figures (go test ./cmd/internal/sim -run
// TestBusyHourOnEachToken -v).
func TestBusyHourOnEachToken(t *testing.T) {
	const prs = 30
	cfg, err := os.ReadFile(exampleConfig)
	require.NoError(t, err)
	for _, tc := range []struct {
		token string
		limit int
		least int // the events an hour the token must sustain at the least
	}{
		{ghfake.TokenGitHub, 1000, 300},
		{ghfake.TokenApp, 5000, 1500},
	} {
		t.Run(tc.token, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), cfg, 0o600))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(busyHour(prs, tc.token)), 0o600))
			sc, err := loadScenario(filepath.Join(dir, "scenario.yaml"))
			require.NoError(t, err)
			files, err := scenarioConfig(filepath.Join(dir, sc.Config))
			require.NoError(t, err)
			var out strings.Builder
			s := startSim(t, sc, files, &out)
			s.quiet = true
			failed, err := s.play(t.Context())
			require.NoError(t, err, tail(out.String()))
			require.Zero(t, failed, tail(out.String()))
			events := 0
			for _, ds := range s.sent {
				events += len(ds)
			}
			rest, points := s.fake.PrimaryUsed(ghfake.BotLogin, "core"), s.fake.PrimaryUsed(ghfake.BotLogin, "graphql")
			require.Positive(t, rest)
			require.Positive(t, points)
			perEvent := func(n int) float64 { return float64(n) / float64(events) }
			sustained := min(tc.limit*events/rest, tc.limit*events/points)
			t.Logf("token %s: %d pull requests, %d events in %s: %d REST requests (%.2f an event), %d GraphQL points (%.2f an event); of %d of each an hour: %d events an hour by REST, %d by GraphQL: %d sustained",
				tc.token, prs, events, s.clock.now().Sub(sc.Clock).Round(time.Minute), rest, perEvent(rest), points, perEvent(points),
				tc.limit, tc.limit*events/rest, tc.limit*events/points, sustained)
			assert.GreaterOrEqual(t, sustained, tc.least)
			for _, c := range s.fake.Calls() {
				assert.NotEqual(t, 403, c.Status, "no request met the limit in a busy hour the token sustains: %s %s", c.Method, c.Path)
			}
		})
	}
}

// The subject an event listed for the sweep after GitHub's GraphQL limit refused its work
// leaves the list once the sweep has advanced it: the next sweep has nothing due.
func TestGraphQLLimitSpentListIsEmptiedBySweep(t *testing.T) {
	s := playDir(t, "graphql-limit-spent")
	files := s.fake.BranchFiles(s.sc.Repo, "pipeline-action/state")
	assert.NotContains(t, files, "index/retry.json")
	assert.Contains(t, files, "index/sweeps.json")
}
