package sim

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// Mistakes in together and state_branch steps, and in the state_branch expectation, are
// reported at their position with a suggestion, as every other step's are.
func TestTogetherAndStateBranchMistakes(t *testing.T) {
	const head = "repo: acme/widgets\nsteps:\n"
	checkMistakes(t, []scenarioMistake{
		{"misspelt step in together", head + "  - together:\n      - reveiw: {pr: 7}\n",
			`4:9: unknown step "reveiw"; did you mean "review"?`},
		{"misspelt key in together", head + "  - together:\n      - review: {pr: 7, usr: a}\n",
			`4:25: unknown key "usr" in review; did you mean "user"?`},
		{"expect in together", head + "  - together:\n      - review: {pr: 7}\n      - expect: {prs: {7: {merged: true}}}\n",
			`5:9: "expect" in together: expect checks the world between steps; put it after the together`},
		{"nested together", head + "  - together:\n      - together: []\n",
			`4:9: "together" in together: together does not nest`},
		{"together of nothing", head + "  - together: []\n",
			`3:15: "together" needs at least one step`},
		{"together of a mapping", head + "  - together: {review: {pr: 7}}\n",
			`3:15: "together" takes a list of steps, not a mapping`},
		{"misspelt state_branch action", head + "  - state_branch: delet\n",
			`3:19: unknown action "delet" in state_branch; did you mean "delete"?`},
		{"unknown state_branch action", head + "  - state_branch: rename\n",
			`3:19: unknown action "rename" in state_branch; expected one of delete, protect`},
		{"state_branch of a mapping", head + "  - state_branch: {delete: true}\n",
			`3:19: "state_branch" takes delete or protect, not a mapping`},
		{"misspelt key of the state_branch expectation", head + "  - expect: {state_branch: {file: [pr-1.json]}}\n",
			`3:29: unknown key "file" in expect.state_branch; did you mean "files"?`},
		{"files of the state_branch expectation", head + "  - expect: {state_branch: {files: pr-1.json}}\n",
			`3:36: "files" in expect.state_branch must be a list of strings, not "pr-1.json"`},
	})
}

// newSim loads a scenario with the example config (or config, when given) into a
// simulation that has not played yet.
// devsPR begins a scenario: acme/widgets with alice and dev as writers, and #7 opened by
// dev; the steps that follow it come after.
const devsPR = "\nrepo: acme/widgets\nusers: {alice: write, dev: write}\nsteps:\n  - open_pr: {number: 7, author: dev}\n"

func newSim(t *testing.T, scenario, config string) (*simulation, *bytes.Buffer) {
	t.Helper()
	dir := writeScenario(t, scenario)
	if config != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), []byte(config), 0o600))
	}
	sc, err := loadScenario(filepath.Join(dir, "scenario.yaml"))
	require.NoError(t, err)
	cfg, err := scenarioConfig(filepath.Join(dir, "pipelines.yaml"))
	require.NoError(t, err)
	var out bytes.Buffer
	sim := startSim(t, sc, cfg, &out)
	sim.quiet = true
	return sim, &out
}

// together applies the world changes of all its steps, then delivers their events at once:
// each invocation has its own token, and every one of them reads before any writes (the
// fake holds the writes). Delivered one after another, the first write would wait for the
// others' reads until the barrier's timeout, and the step would say they did not all race.
func TestTogetherDeliversAtOnce(t *testing.T) {
	sim, out := newSim(t, devsPR+`  - together:
      - check: {pr: 7, name: test}
      - review: {pr: 7, user: alice, state: approved}
      - label: {pr: 7, add: [automerge, other]}
      - redeliver: 1
      - review: {pr: 7, user: dev, state: commented, deliver: false}
expect:
  prs: {7: {merged: true, comments: 1}}
`, "")
	sim.barrierTimeout = 20 * time.Second
	start := time.Now()
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	require.Zero(t, failed, out.String())
	assert.Less(t, time.Since(start), sim.barrierTimeout, "no write waited for the timeout")

	assert.Contains(t, out.String(), "── step 2: together, 5 events at once:\n     · check \"test\" on #7: success\n")
	assert.Contains(t, out.String(), "     · review #7 by dev: commented (the event is lost: not delivered)\n")
	assert.Contains(t, out.String(), "   5 invocations at once: 5 of them read before any wrote")
	assert.NotContains(t, out.String(), "did not all race")

	ds := sim.sent[2]
	require.Len(t, ds, 5, "check, review, two labels and the redelivered opening")
	assert.Equal(t, sim.sent[1][0], ds[4], "a redelivery is the same run")
	assert.True(t, sim.together[2])

	// The five invocations' reads were answered before the step's first REST write.
	calls := sim.fake.Calls()
	firstWrite := -1
	for i, c := range calls {
		if c.Method != "GET" && c.Kind != "graphql" {
			firstWrite = i
			break
		}
	}
	assert.GreaterOrEqual(t, firstWrite, 5, "%v", calls)
	for _, c := range calls[:5] { // writes are answered only once all five have read
		assert.True(t, c.Method == "GET" || c.Kind == "graphql", "%v", calls)
	}
}

// A redeliver of a together step delivers its events at once again.
func TestRedeliverTogether(t *testing.T) {
	sim, out := newSim(t, devsPR+`  - together:
      - review: {pr: 7, user: alice, state: approved}
      - check: {pr: 7, name: test}
  - redeliver: 2
expect:
  prs: {7: {merged: true, comments: 1}}
`, "")
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	require.Zero(t, failed, out.String())
	assert.Equal(t, 2, strings.Count(out.String(), "2 invocations at once: 2 of them read before any wrote"), out.String())
}

// state_branch: delete deletes the branch named by settings.state_branch, protect makes a
// ruleset refuse its creation and updates; the state_branch expectation checks it.
func TestStateBranchSteps(t *testing.T) {
	cfg, err := os.ReadFile(exampleConfig)
	require.NoError(t, err)
	custom := strings.Replace(string(cfg), "version: 1\n", "version: 1\nsettings: {state_branch: ci/state}\n", 1)
	for _, tc := range []struct{ name, config, branch string }{
		{"default", "", "pipeline-action/state"},
		{"settings", custom, "ci/state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sim, out := newSim(t, devsPR+`  - expect: {state_branch: {exists: true, files: [pr-7.json, index/0d.json]}}
  - state_branch: delete
  - expect: {state_branch: {exists: false}}
  - state_branch: delete
  - state_branch: protect
expect:
  state_branch: {exists: false}
`, tc.config)
			_, err := sim.fake.PushCommit("acme/widgets", tc.branch, ghfake.GitPush{Pusher: "alice",
				Files: map[string]string{"pr-7.json": "{}", "index.json": "[]"}})
			require.NoError(t, err)
			failed, err := sim.play(t.Context())
			require.NoError(t, err, out.String())
			require.Zero(t, failed, out.String())
			assert.Contains(t, out.String(), "✓ state branch "+tc.branch+" holds: pr-7.json")
			assert.Contains(t, out.String(), "── step 3: state_branch: delete "+tc.branch+" (no event")
			assert.Contains(t, out.String(), "── step 5: state_branch: delete "+tc.branch+" (there was none)")
			assert.Contains(t, out.String(), "── step 6: state_branch: protect "+tc.branch)
			assert.NotContains(t, sim.fake.Branches("acme/widgets"), tc.branch)

			_, err = sim.fake.PushCommit("acme/widgets", tc.branch, ghfake.GitPush{Pusher: "alice", Files: map[string]string{"pr-7.json": "{}"}})
			assert.True(t, errors.Is(err, ghfake.ErrRuleViolation), "creating the branch is refused: %v", err)
		})
	}
}

// A state_branch expectation that does not hold says what was found.
func TestStateBranchExpectationFails(t *testing.T) {
	code, out, _ := simulate(t, writeScenario(t, `
repo: acme/widgets
users: {dev: write}
steps:
  - open_pr: {number: 7, author: dev}
expect:
  state_branch: {exists: false, files: [pr-8.json]}
`), "-q")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "✗ state branch pipeline-action/state exists: want false, found true")
	assert.Contains(t, out, "✗ state branch pipeline-action/state holds: want pr-8.json, found it is not there")
	code, out, _ = simulate(t, writeScenario(t, `
repo: acme/widgets
users: {dev: write}
steps:
  - state_branch: protect
  - open_pr: {number: 7, author: dev}
expect:
  state_branch: {exists: true, files: [pr-7.json]}
`), "-q")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "✗ state branch pipeline-action/state exists: want true, found false")
	assert.Contains(t, out, "✗ state branch pipeline-action/state holds: want pr-7.json, found there is no such branch")
}
