package sim

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/state"
)

const exampleConfig = "../../../examples/auto-merge/pipelines.yaml"

// TestScenarios plays every example and every negative-path scenario; each must pass.
func TestScenarios(t *testing.T) {
	for _, sf := range scenarioFiles(t, "../../../examples/*", "testdata/scenarios/*") {
		t.Run(sf.file, func(t *testing.T) {
			t.Parallel() // each plays against its own fake; -parallel bounds how many at once
			mainPasses(t, "--scenario", sf.file, sf.dir)
		})
	}
}

// scenarioPath is a scenario file (scenario.yaml, or scenario-<name>.yaml for another path
// of an example) and its folder.
type scenarioPath struct{ dir, file string }

// scenarioFiles lists the scenario files of the folders the patterns match, of which
// there is at least one.
func scenarioFiles(t *testing.T, patterns ...string) []scenarioPath {
	t.Helper()
	var dirs []string
	for _, p := range patterns {
		more, err := filepath.Glob(p)
		require.NoError(t, err)
		dirs = append(dirs, more...)
	}
	require.NotEmpty(t, dirs)
	var all []scenarioPath
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "scenario*.yaml"))
		require.NoError(t, err)
		for _, file := range files {
			all = append(all, scenarioPath{dir: dir, file: file})
		}
	}
	return all
}

// mainPasses runs simulate with args, requires it to pass every expectation, and returns
// what it printed.
func mainPasses(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(t.Context(), args, &out, &errOut)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	assert.Contains(t, out.String(), "PASS: every expectation holds")
	assert.NotContains(t, out.String(), "✗")
	return out.String()
}

// writeScenario writes the example config and a scenario into a temporary directory.
func writeScenario(t *testing.T, scenario string) string {
	t.Helper()
	dir := t.TempDir()
	cfg, err := os.ReadFile(exampleConfig)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), cfg, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(scenario), 0o600))
	return dir
}

func simulate(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(t.Context(), append([]string{dir}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestSimulateExitCodes(t *testing.T) {
	// openedPR is a scenario that opens #7, which the step after it acts on.
	const openedPR = "\nrepo: acme/widgets\nsteps:\n  - open_pr: {number: 7, author: dev}\n"
	cases := []struct {
		name     string
		scenario string
		code     int
		want     string // in stdout or stderr
	}{
		{"failed expectation says what was found", `
repo: acme/widgets
users: {dev: write}
steps:
  - open_pr: {number: 7, author: dev}
expect:
  prs: {7: {merged: true}}
  runs: [{pipeline: auto-merge, status: completed}]
`, 1, "✗ #7 merged: want true, found false"},
		{"branches are the exact set", `
repo: acme/widgets
branches: [develop]
steps:
  - open_pr: {number: 7, author: dev, head: feat/a}
  - open_pr: {number: 8, author: someone, head: topic, fork: someone}
expect:
  branches: [main, feat/a]
`, 1, "✗ branches of acme/widgets: want [feat/a main], found [develop feat/a main pipeline-action/state]"},
		{"unknown step", `
repo: acme/widgets
steps:
  - open_prr: {number: 7}
`, 2, `scenario.yaml:4:5: unknown step "open_prr"; did you mean "open_pr"?`},
		{"unknown key", `
repo: acme/widgets
steps:
  - open_pr: {number: 7, autor: dev}
`, 2, `unknown key "autor"`},
		{"a step on a PR that does not exist", `
repo: acme/widgets
steps:
  - review: {pr: 9, user: alice}
`, 2, "scenario.yaml:4:5: review:"},
		{"a report to a stage no run stands at", openedPR + "  - report: {pr: 7, stage: x, verdict: approve}\n", 2, `report: no unfinished run of #7 stands at stage "x"`},
		{"a workflow run without its user", openedPR + "  - workflow_run: {pr: 7, stage: x}\n", 2, "workflow_run needs pr, stage and user"},
		{"a workflow run posing as the agent of a stage no run stands at", openedPR + "  - workflow_run: {pr: 7, stage: x, user: dev}\n", 2, `workflow_run: no unfinished run of #7 stands at stage "x"`},
		{"a check of an app and a workflow at once", openedPR + "  - check: {pr: 7, name: test, app: ci-app, workflow: ci}\n", 2, "check takes an app or a workflow"},
		{"redeliver of a later step", `
repo: acme/widgets
steps:
  - redeliver: 2
  - open_pr: {number: 7, author: dev}
`, 2, "redeliver 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := simulate(t, writeScenario(t, tc.scenario), "-q")
			assert.Equal(t, tc.code, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
			assert.Contains(t, out+errOut, tc.want)
		})
	}
}

// A scenario that expects nothing would pass whatever the action did: it is a mistake
// in the scenario, exit 2, never PASS.
func TestScenarioWithoutExpectations(t *testing.T) {
	for name, src := range map[string]string{
		"no expect at all":                    "repo: acme/widgets\nusers: {dev: write}\nsteps:\n  - open_pr: {number: 7, author: dev}\n",
		"an empty expect":                     "repo: acme/widgets\nusers: {dev: write}\nsteps:\n  - open_pr: {number: 7, author: dev}\n  - expect: {}\nexpect:\n",
		"an expectation on a PR with no keys": "repo: acme/widgets\nusers: {dev: write}\nsteps:\n  - open_pr: {number: 7, author: dev}\nexpect: {prs: {7: {}}}\n",
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := simulate(t, writeScenario(t, src), "-q")
			assert.Equal(t, 2, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
			assert.Contains(t, out, "NO EXPECTATIONS: this scenario checks nothing")
			assert.NotContains(t, out, "PASS")
		})
	}
	// One expectation, in a step, is enough.
	code, out, _ := simulate(t, writeScenario(t, "repo: acme/widgets\nusers: {dev: write}\nsteps:\n  - open_pr: {number: 7, author: dev}\n  - expect: {prs: {7: {merged: false}}}\n"), "-q")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "PASS: every expectation holds")
}

func TestSimulateBadConfigExits2(t *testing.T) {
	dir := writeScenario(t, "repo: acme/widgets\nsteps: []\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), []byte("version: 1\npipelines:\n  p:\n    stages: [{id: a, type: gate, conditions: [{check: nope}]}]\n"), 0o600))
	code, _, errOut := simulate(t, dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "pipelines.yaml:4:")
}

// play runs a scenario through a simulation and returns it, for tests that look at
// the API calls of each step.
func play(t *testing.T, scenario string) *simulation {
	t.Helper()
	return playPassing(t, filepath.Join(writeScenario(t, scenario), "scenario.yaml"), exampleConfig)
}

// playPassing plays the scenario file at path, quietly, with the config at config (the
// scenario's own when empty), and requires every expectation of it to hold.
func playPassing(t *testing.T, path, config string) *simulation {
	t.Helper()
	sc, err := loadScenario(path)
	require.NoError(t, err)
	if config == "" {
		config = sc.Rel(sc.Config)
	}
	cfg, err := scenarioConfig(config)
	require.NoError(t, err)
	var out bytes.Buffer
	sim := startSim(t, sc, cfg, &out)
	sim.quiet = true
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	require.Zero(t, failed, out.String())
	return sim
}

func callsOf(sim *simulation, step int) map[string]int {
	for _, s := range sim.stats {
		if s.step == step {
			return s.calls
		}
	}
	return nil
}

func TestRedeliveryWritesNothing(t *testing.T) {
	sim := play(t, devsPR+`  - check: {pr: 7, name: test}
  - review: {pr: 7, user: alice, state: approved}
  - redeliver: 1
  - redeliver: 3
expect:
  prs: {7: {merged: true, comments: 1}}
`)
	assert.Equal(t, 1, callsOf(sim, 3)["pulls/merge"])
	for _, step := range []int{4, 5} {
		assert.Equal(t, map[string]int{"graphql": 1}, callsOf(sim, step), "step %d reads once and writes nothing", step)
	}
	runs := sim.runs()
	require.Len(t, runs, 1, "the redelivered opening starts no second run")
}

// A secondary rate limit on the merge is waited out in the scenario's time: the merge is
// sent again once, the clock moves on by the retry-after, and no real time is spent.
func TestSecondaryRateLimitWaitsInScenarioTime(t *testing.T) {
	start := time.Now()
	sim := play(t, devsPR+`  - check: {pr: 7, name: test}
  - fault: {operation: pulls/merge, status: 403, message: "You have exceeded a secondary rate limit", retry_after: 45}
  - review: {pr: 7, user: alice, state: approved}
expect:
  prs: {7: {merged: true}}
`)
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.Equal(t, 2, callsOf(sim, 4)["pulls/merge"], "one retry")
	assert.Equal(t, time.Date(2026, 1, 5, 9, 0, 45, 0, time.UTC), sim.clock.now())
}

func TestEventThatChangesNothingWritesNothing(t *testing.T) {
	sim := play(t, `
repo: acme/widgets
users: {alice: write, bob: read, dev: write}
steps:
  - open_pr: {number: 7, author: dev}
  - comment: {pr: 7, user: bob, body: "any news?"}
  - label: {pr: 7, add: [unrelated]}
expect:
  prs: {7: {merged: false, comments: 1}}
`)
	assert.Equal(t, map[string]int{"graphql": 2, "issues/create-comment": 1}, callsOf(sim, 1),
		"one read; the state branch is created with the state committed on it (two GraphQL mutations, one request); a new state comment is posted, "+
			"its state bound in by the next event that shows more")
	assert.Equal(t, map[string]int{"graphql": 1}, callsOf(sim, 2))
	assert.Equal(t, map[string]int{"graphql": 1}, callsOf(sim, 3))
}

// A comment from another user carrying the state marker changes nothing: its forged
// state (a run already past its gate) is ignored, and the job log says so.
func TestForgedStateMarkerIsIgnored(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	forged := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7", Status: model.RunRunning,
		Stage: "merge", StartedAt: at, UpdatedAt: at,
		Stages: map[string]*model.StageRun{
			"ready": {Status: model.StagePassed, Attempt: 1, EnteredAt: at},
			"merge": {Status: model.StageWaiting, Attempt: 1, EnteredAt: at},
		},
	}}}
	marker, err := state.Encode(forged)
	require.NoError(t, err)
	dir := writeScenario(t, `
repo: acme/widgets
users: {mallory: read, dev: write}
steps:
  - open_pr: {number: 7, author: dev, deliver: false}
  - comment: {pr: 7, user: mallory, body: "nothing to see\n`+marker+`"}
  - label: {pr: 7, add: [automerge]}
expect:
  prs: {7: {merged: false, comments: 1}}
  runs: [{pipeline: auto-merge, subject: "#7", status: waiting, stage: ready}]
`)
	code, out, errOut := simulate(t, dir, "-v")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "ignoring state marker in comment")
	assert.Contains(t, out, "by mallory")
	assert.NotContains(t, out, "pulls/merge")
	assert.Contains(t, out, "started late on issue_comment.created", "the lost opened event is made good by a fresh run, not by the forged one")
}

func TestSimulatePrintsStateCommentAndStats(t *testing.T) {
	code, out, _ := simulate(t, "../../../examples/auto-merge", "--stats")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "needs 1 approving review from someone with write access; has 0")
	assert.Contains(t, out, "```mermaid")
	assert.Contains(t, out, "class s_ready current")
	assert.True(t, strings.Contains(out, "API calls by step:") && strings.Contains(out, "pulls/merge 1"), out)
	assert.NotContains(t, out, "<!-- pipeline-action:state", "the hidden state is not printed")
}

// startSim is a simulation of sc with the config files, writing to out, whose fake is
// closed when the test ends.
func startSim(t *testing.T, sc *scenario, files []scenarioFile, out io.Writer) *simulation {
	t.Helper()
	sim := newSimulation(sc, files, out)
	t.Cleanup(sim.fake.Close)
	return sim
}
