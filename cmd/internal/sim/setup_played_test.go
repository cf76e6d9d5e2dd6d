package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// setupWorkflow is what the played test reads of docs/setup/pipelines.yml.
type setupWorkflow struct {
	On   map[string]yaml.Node `yaml:"on"`
	Jobs map[string]struct {
		If    string `yaml:"if"`
		Steps []struct {
			Uses string            `yaml:"uses"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// actionJob returns the if: of the one job that runs the action, and the inputs its step gives.
func (wf setupWorkflow) actionJob(t *testing.T) (cond string, with map[string]string) {
	t.Helper()
	found := 0
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, "org/pipeline-action@") {
				found++
				cond, with = j.If, s.With
			}
		}
	}
	require.Equal(t, 1, found, "the pipelines workflow runs the action in one step")
	return cond, with
}

// eventNameCond is the only form of job condition the test evaluates; any other fails it,
// so that a condition added to the docs is evaluated here before the test passes again.
var eventNameCond = regexp.MustCompile(`^github\.event_name (==|!=) '([a-z_]+)'$`)

// runsOn is GitHub's decision for the workflow: whether ev starts its job, or why not.
func (wf setupWorkflow) runsOn(t *testing.T) func(ghfake.Event) string {
	cond, _ := wf.actionJob(t)
	return func(ev ghfake.Event) string {
		trigger := ev.Name
		if trigger == "pull_request" {
			// The workflow runs on the base branch's code, as the docs say it must.
			trigger = "pull_request_target"
		}
		node, ok := wf.On[trigger]
		if !ok {
			return "no `" + trigger + "` under on:"
		}
		var filter struct {
			Types          []string `yaml:"types"`
			Workflows      []string `yaml:"workflows"`
			BranchesIgnore []string `yaml:"branches-ignore"`
		}
		require.NoError(t, node.Decode(&filter), trigger)
		if len(filter.Types) > 0 && !slices.Contains(filter.Types, ev.Action) {
			return fmt.Sprintf("%s types are %v", trigger, filter.Types)
		}
		if trigger == "workflow_run" {
			var p struct {
				WorkflowRun struct {
					Name       string `json:"name"`
					HeadBranch string `json:"head_branch"`
				} `json:"workflow_run"`
			}
			require.NoError(t, json.Unmarshal(ev.Payload, &p))
			if !slices.Contains(filter.Workflows, p.WorkflowRun.Name) {
				return fmt.Sprintf("workflow_run.workflows %v does not name %q", filter.Workflows, p.WorkflowRun.Name)
			}
			if slices.Contains(filter.BranchesIgnore, p.WorkflowRun.HeadBranch) {
				return fmt.Sprintf("workflow_run.branches-ignore %v names %q", filter.BranchesIgnore, p.WorkflowRun.HeadBranch)
			}
		}
		for _, clause := range strings.Split(cond, "&&") {
			clause = strings.TrimSpace(clause)
			if clause == "" {
				continue
			}
			m := eventNameCond.FindStringSubmatch(clause)
			require.NotNil(t, m, "the job's if: %q has a clause the test cannot evaluate: %q", cond, clause)
			if (trigger == m[2]) != (m[1] == "==") {
				return "the job's if: " + cond
			}
		}
		return ""
	}
}

// setupConfig is the config docs/setup.md shows for .github/pipelines.yaml.
func setupConfig(t *testing.T, doc []byte) []byte {
	t.Helper()
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1) {
		if bytes.Contains(m[1], []byte("\n# .github/pipelines.yaml")) {
			return m[1]
		}
	}
	t.Fatal("docs/setup.md shows no .github/pipelines.yaml (a yaml block with the comment # .github/pipelines.yaml)")
	return nil
}

// setupFiles are the ready workflows of docs/setup/ a reader copies, as pairs: with the
// state key (the recommended set) and without it.
var setupFiles = []struct{ pipelines, sweep string }{
	{"docs/setup/pipelines.yml", "docs/setup/sweep.yml"},
	{"docs/setup/pipelines-nokey.yml", "docs/setup/sweep-nokey.yml"},
}

// forkOrder is a fork's pull request (#2, whose CI names no pull request) green on CI,
// then approved last, beside #1.
const forkOrder = "a fork's pull request: CI then approval"

// setupOrders are the orders in which a pull request's approval and CI come: the
// approval last is the common one (CI green, then a maintainer approves), and then no
// later event comes for the pull request. Each order plays, after CI, the sweep the
// schedule starts one interval later, and ends one interval after its last event: the
// steps are formatted with the CI workflow's name and the sweep's interval.
var setupOrders = map[string]string{
	"approval then CI": `
  - review: {pr: 1, user: maintainer, state: approved}
  - expect: {prs: {1: {merged: false}}}
  - check: {pr: 1, name: test, workflow: %[1]s}
  - advance: %[2]s
`,
	"CI then approval": `
  - check: {pr: 1, name: test, workflow: %[1]s}
  - advance: %[2]s
  - expect: {prs: {1: {merged: false}}}
  - review: {pr: 1, user: maintainer, state: approved}
  - advance: %[2]s
`,
	forkOrder: `
  - open_pr: {number: 2, author: eve, fork: eve}
  - check: {pr: 2, name: test, workflow: %[1]s}
  - advance: %[2]s
  - expect: {prs: {2: {merged: false}}}
  - review: {pr: 2, user: maintainer, state: approved}
  - review: {pr: 1, user: maintainer, state: approved}
  - check: {pr: 1, name: test, workflow: %[1]s}
  - advance: %[2]s
  - expect: {prs: {2: {merged: true}}}
`,
	"CI, changes requested and an approval, then the request dismissed": `
  - check: {pr: 1, name: test, workflow: %[1]s}
  - review: {pr: 1, user: reviewer, state: changes_requested}
  - review: {pr: 1, user: maintainer, state: approved}
  - advance: %[2]s
  - expect: {prs: {1: {merged: false}}}
  - dismiss_review: {pr: 1, user: reviewer}
  - advance: %[2]s
`,
}

// TestSetupAsWritten plays docs/setup.md as a new user follows it: the config it shows, run
// by its pipelines workflow (docs/setup/pipelines.yml, and the one without the key) with
// that workflow's permissions, triggers, job condition and state key, and swept by its
// sweep workflow on its schedule. A pull request opened, approved by someone with write
// access and green on CI merges, in either order, at the latest on the first sweep after
// the last of them: GitHub starts no job for an event the workflow skips.
func TestSetupAsWritten(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/setup.md")
	require.NoError(t, err)
	for _, files := range setupFiles {
		orders := maps.Clone(setupOrders)
		if strings.Contains(files.pipelines, "nokey") {
			// A fork's review runs the workflow with a read-only token, which the simulator
			// does not give: only the keyed workflow, which skips reviews, plays it as GitHub does.
			delete(orders, forkOrder)
		}
		for order, steps := range orders {
			t.Run(filepath.Base(files.pipelines)+": "+order, func(t *testing.T) {
				t.Parallel()
				skipped, keyed, _ := playSetup(t, setupConfig(t, doc), files.pipelines, files.sweep, steps, "")
				if keyed {
					// The workflow skips reviews (the environment refuses their merge ref): the
					// approval counts on CI's event, or on the sweep's.
					for _, ev := range skipped {
						assert.True(t, strings.HasPrefix(ev, "pull_request_review."), "only reviews are skipped, not %s", ev)
					}
					assert.NotEmpty(t, skipped)
				} else {
					assert.Empty(t, skipped, "without the key, the workflow runs on every event of the pull request")
				}
			})
		}
	}
}

// sweepInterval is the time between two runs of the sweep workflow at path: its
// schedule's cron, every N minutes.
func sweepInterval(t *testing.T, path string, text []byte) time.Duration {
	t.Helper()
	var wf struct {
		On struct {
			Schedule []struct {
				Cron string `yaml:"cron"`
			} `yaml:"schedule"`
		} `yaml:"on"`
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	require.NoError(t, yaml.Unmarshal(text, &wf), path)
	require.Len(t, wf.On.Schedule, 1, "%s runs on one schedule", path)
	m := regexp.MustCompile(`^\*/([0-9]+) \* \* \* \*$`).FindStringSubmatch(wf.On.Schedule[0].Cron)
	require.NotNil(t, m, "%s: the test reads a cron of the form */N * * * *, not %q", path, wf.On.Schedule[0].Cron)
	commands := 0
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, "org/pipeline-action@") && s.With["command"] == "sweep" {
				commands++
			}
		}
	}
	require.Equal(t, 1, commands, "%s runs the action with command: sweep in one step", path)
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return time.Duration(n) * time.Minute
}

// playSetup plays config with the pipelines workflow at pipelinesPath and the sweep
// workflow at sweepPath: a pull request opened, then steps (a setupOrders entry), and
// expects it merged. top adds to the scenario's top-level keys. It returns the events
// the pipelines workflow did not run on, whether it holds the state key, and the simulation.
func playSetup(t *testing.T, config []byte, pipelinesPath, sweepPath, steps, top string) (skipped []string, keyed bool, s *simulation) {
	text, err := os.ReadFile("../../../" + pipelinesPath)
	require.NoError(t, err)
	sweepText, err := os.ReadFile("../../../" + sweepPath)
	require.NoError(t, err)
	interval := sweepInterval(t, sweepPath, sweepText)
	var wf setupWorkflow
	require.NoError(t, yaml.Unmarshal(text, &wf))
	_, with := wf.actionJob(t)
	var runs struct {
		Workflows []string `yaml:"workflows"`
	}
	node := wf.On["workflow_run"]
	require.NoError(t, node.Decode(&runs))
	require.NotEmpty(t, runs.Workflows, "the pipelines workflow names the CI workflows it waits for")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), config, 0o600))
	// The CI workflow is the first the pipelines workflow names; the reviewer has write access.
	scenarioText := top + `repo: acme/widgets
tick: 1s
users: {dev: write, maintainer: write, reviewer: write}
steps:
  - open_pr: {number: 1, author: dev}` + fmt.Sprintf(steps, runs.Workflows[0], interval) + `expect:
  prs: {1: {merged: true}}
  job_errors: []
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(scenarioText), 0o600))
	sc, err := loadScenario(filepath.Join(dir, "scenario.yaml"))
	require.NoError(t, err)
	sc.Permissions = map[string]any{
		"run":   workflowPermissions(t, pipelinesPath, text),
		"sweep": workflowPermissions(t, sweepPath, sweepText),
	}
	var sweepWith map[string]string
	var sweepWf setupWorkflow
	require.NoError(t, yaml.Unmarshal(sweepText, &sweepWf))
	for _, j := range sweepWf.Jobs {
		for _, s := range j.Steps {
			if s.With["command"] == "sweep" {
				sweepWith = s.With
			}
		}
	}
	require.Equal(t, with["state_key"], sweepWith["state_key"], "%s and %s give the same state key", pipelinesPath, sweepPath)
	if with["state_key"] != "" {
		sc.StateKey = "a-state-key-of-the-pipelines-environment"
	}

	files, err := scenarioConfig(sc.Rel(sc.Config))
	require.NoError(t, err)
	require.NoError(t, checkConfig(files))
	var out bytes.Buffer
	s = newSimulation(sc, files, &out)
	defer s.fake.Close()
	s.quiet = true
	runsOn := wf.runsOn(t)
	s.runsOn = func(ev ghfake.Event) string {
		if ev.Name == "schedule" {
			return "" // the sweep workflow's, read above
		}
		why := runsOn(ev)
		if why != "" {
			name := describeEvents([]ghfake.Event{ev})
			if ev.Name != "push" {
				name = ev.Name + "." + ev.Action
			}
			skipped = append(skipped, name)
		}
		return why
	}
	failed, err := s.play(t.Context())
	require.NoError(t, err, out.String())
	assert.Zero(t, failed, out.String())
	assert.GreaterOrEqual(t, s.checked, 2, "the expectations were checked")
	return skipped, with["state_key"] != "", s
}

// The workflow's decision is GitHub's: an event it does not subscribe to, an action its
// types leave out, a workflow_run of a workflow it does not name, or one its job's if:
// refuses, starts nothing.
func TestSetupWorkflowTriggers(t *testing.T) {
	var wf setupWorkflow
	require.NoError(t, yaml.Unmarshal([]byte(`on:
  pull_request_target:
    types: [opened]
  workflow_run:
    workflows: [ci]
    types: [completed]
    branches-ignore: [pipeline-action/state]
  status:
  pull_request_review:
jobs:
  pipeline:
    if: github.event_name != 'pull_request_review'
    steps:
      - uses: org/pipeline-action@v1
`), &wf))
	runsOn := wf.runsOn(t)
	run := func(name string) []byte {
		return []byte(`{"workflow_run": {"name": "` + name + `", "head_branch": "feature"}}`)
	}
	onState := []byte(`{"workflow_run": {"name": "ci", "head_branch": "pipeline-action/state"}}`)
	for ev, runs := range map[*ghfake.Event]bool{
		{Name: "pull_request", Action: "opened"}:                          true,
		{Name: "pull_request", Action: "closed"}:                          false,
		{Name: "status"}:                                                  true,
		{Name: "issue_comment", Action: "created"}:                        false,
		{Name: "pull_request_review", Action: "submitted"}:                false,
		{Name: "workflow_run", Action: "completed", Payload: run("ci")}:   true,
		{Name: "workflow_run", Action: "completed", Payload: run("lint")}: false,
		{Name: "workflow_run", Action: "completed", Payload: onState}:     false,
		{Name: "push"}: false,
	} {
		assert.Equal(t, runs, runsOn(*ev) == "", "%s.%s: %s", ev.Name, ev.Action, runsOn(*ev))
	}
}
