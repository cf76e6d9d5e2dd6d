package sim

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deliver: later holds a step's events; deliver_held delivers them at that point, out of
// order, with the run ids they got when held, and in a together at once with the others.
func TestDeliverLater(t *testing.T) {
	sim, out := newSim(t, `
repo: acme/widgets
users: {alice: write, dev: write}
steps:
  - open_pr: {number: 7, author: dev, deliver: later}
  - review: {pr: 7, user: alice, state: approved, deliver: later}
  - check: {pr: 7, name: test}
  - expect: {runs: [{pipeline: auto-merge, status: running}]}
  - deliver_held: 1
  - together:
      - deliver_held: 2
      - check: {pr: 7, name: test}
expect:
  prs: {7: {merged: true, comments: 1}}
`, "")
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	assert.Equal(t, 1, failed, "no run before the opening event is delivered:\n%s", out.String())
	assert.Contains(t, out.String(), "── step 1: open_pr #7 by dev into main\n   (held: deliver_held: 1 delivers it)\n")
	assert.Contains(t, out.String(), "── step 5: deliver_held 1: the event step 1 held, late\n")
	assert.Contains(t, out.String(), "   2 invocations at once: 2 of them read before any wrote")
	require.Len(t, sim.sent[5], 1)
	assert.Equal(t, "pull_request", sim.sent[5][0].event.Name)
	assert.Equal(t, 1001, sim.sent[5][0].runID, "its run id is the one it got when held")
	require.Len(t, sim.sent[6], 2)
	assert.Equal(t, 1002, sim.sent[6][0].runID, "the held review, delivered together with the check")
}

// deliver_held must name an earlier step that held events, once.
func TestDeliverHeldMistakes(t *testing.T) {
	const head = "repo: acme/widgets\nsteps:\n  - open_pr: {number: 7, author: dev, deliver: later}\n  - review: {pr: 7, user: a}\n"
	for _, tc := range []struct{ name, src, want string }{
		{"not held", head + "  - deliver_held: 2\n", `5:5: deliver_held 2: step 2 holds no events; give it deliver: later`},
		{"not before", head + "  - deliver_held: 3\n", `5:5: deliver_held 3: step 3 is not before this step (step 3)`},
		{"twice", head + "  - deliver_held: 1\n  - together:\n      - deliver_held: 1\n", `7:9: deliver_held 1: step 3 delivers the events step 1 held already`},
		{"not a number", head + "  - deliver_held: one\n", `5:19: "deliver_held" takes the number of an earlier step that said deliver: later, counting from 1`},
		{"later where there is no deliver", head + "  - fault: {operation: pulls/merge, status: 502, deliver: later}\n", `5:50: unknown key "deliver" in fault`},
		{"a negative tick", "repo: acme/widgets\ntick: -1s\n", `2:1: "tick" must not be negative`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.yaml")
			require.NoError(t, os.WriteFile(path, []byte(tc.src), 0o600))
			_, err := loadScenario(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), path+":"+tc.want)
		})
	}
}

// tick moves the scenario's clock before each step: a second approval of the same head is
// a review of its own time.
func TestTick(t *testing.T) {
	sim, out := newSim(t, `
repo: acme/widgets
tick: 1s
users: {alice: write, dev: write}
steps:
  - open_pr: {number: 7, author: dev}
  - review: {pr: 7, user: alice, state: approved}
  - review: {pr: 7, user: alice, state: approved}
`, "")
	_, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	assert.Equal(t, sim.sc.Clock.Add(3*time.Second), sim.clock.now())
}

// advance in a together moves the clock, then its sweep runs at once with the others.
func TestAdvanceInTogether(t *testing.T) {
	sim, out := newSim(t, devsPR+`  - together:
      - review: {pr: 7, user: alice, state: approved}
      - advance: 1h
expect:
  runs: [{pipeline: auto-merge, status: waiting}]
`, "")
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	require.Zero(t, failed, out.String())
	assert.Contains(t, out.String(), "     · advance 1h0m0s to 2026-01-05T10:00:00Z; the sweep runs\n")
	assert.Contains(t, out.String(), "   2 invocations at once: 2 of them read before any wrote")
	require.Len(t, sim.sent[2], 2)
	assert.Equal(t, "schedule", sim.sent[2][1].event.Name)
}
