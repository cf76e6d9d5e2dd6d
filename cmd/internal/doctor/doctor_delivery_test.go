package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
)

// deliveryFindings runs the delivery and concurrency checks of config against one
// workflow, and returns the findings as doctor prints them.
func deliveryFindings(t *testing.T, config, wf string) string {
	t.Helper()
	cfg, err := engine.Load("p.yaml", []byte(config), gates.Default())
	require.NoError(t, err)
	w, err := parseWorkflow(ghapi.WorkflowFile{Path: ".github/workflows/p.yml", Blob: ghapi.Blob{Text: wf}})
	require.NoError(t, err)
	d := &doctor{cfg: cfg}
	d.checkDelivery([]*workflow{w}, nil)
	d.checkConcurrency([]*workflow{w})
	var b strings.Builder
	d.print(&b)
	return b.String()
}

const actionJobs = `
jobs:
  pipeline:
    runs-on: ubuntu-latest
    steps:
      - uses: acme/pipeline-action@v1
`

const issuePipeline = `version: 1
pipelines:
  triage:
    scope: issue
    trigger: {event: issues.assigned}
    stages:
      - {id: t, type: action, action: add_label, config: {labels: [triaged]}}
`

func TestDoctorTriggerTypeNotDelivered(t *testing.T) {
	out := deliveryFindings(t, issuePipeline, "on:\n  issues:\n    types: [opened]\n"+actionJobs)
	assert.Contains(t, out, "problem     event issues.assigned, which the trigger of pipeline triage at p.yaml:5:14 relies on, is never delivered: `on.issues.types` of .github/workflows/p.yml lists only opened")
	assert.Contains(t, out, "fix: add assigned to `on.issues.types` of .github/workflows/p.yml")

	out = deliveryFindings(t, issuePipeline, "on:\n  issues:\n    types: [opened, assigned]\n"+actionJobs)
	assert.Contains(t, out, "ok          event issues.assigned (the trigger of pipeline triage at p.yaml:5:14): .github/workflows/p.yml delivers it")
	assert.Contains(t, out, "no problem.")

	out = deliveryFindings(t, issuePipeline, "on:\n  issues:\n"+actionJobs) // every type
	assert.Contains(t, out, "no problem.")
}

// A trigger's event the workflows never deliver: without `types:`, GitHub delivers only
// opened, synchronize and reopened of a pull request; an event name the workflow never
// lists, that no other check asks for, is not delivered at all. Each says its fix, and a
// workflow that lists the event delivers it.
func TestDoctorTriggerEventNotDelivered(t *testing.T) {
	for _, tc := range []struct {
		name, event, why, fix, fixed string
	}{
		{"pull request default types", "pull_request.labeled",
			"`on.pull_request_target` of .github/workflows/p.yml has no `types:`, and GitHub then delivers only opened, synchronize, reopened",
			"fix: add `types: [opened, synchronize, reopened, labeled]` to `on.pull_request_target`",
			"on:\n  pull_request_target: {types: [labeled]}\n  pull_request_review:\n"},
		{"event missing", "issue_comment.created",
			"no workflow that runs the action listens to issue_comment",
			"fix: add `issue_comment: {types: [created]}` to the `on:`", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			config := gatedOnCI(tc.event)
			out := deliveryFindings(t, config, "on:\n  pull_request_target:\n  pull_request_review:\n"+actionJobs)
			assert.Contains(t, out, "event "+tc.event+", which the trigger of pipeline p at p.yaml:4:14 relies on, is never delivered: "+tc.why)
			assert.Contains(t, out, tc.fix)
			if tc.fixed != "" {
				assert.Contains(t, deliveryFindings(t, config, tc.fixed+actionJobs), "no problem.")
			}
		})
	}
}

const approvalPipeline = `version: 1
groups:
  maintainers: {users: [alice]}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: ok, type: human, wait_for: approval, from: maintainers}
`

// A job `if:` that skips the review events loses the approval an approval stage waits for.
func TestDoctorJobIfSkipsEvent(t *testing.T) {
	wf := "on:\n  pull_request_target:\n  pull_request_review:\n    types: [submitted]\n" + strings.Replace(actionJobs,
		"    runs-on:", "    if: github.event_name != 'pull_request_review'\n    runs-on:", 1)
	out := deliveryFindings(t, approvalPipeline, wf)
	assert.Contains(t, out, "problem     event pull_request_review.submitted, which stage p.ok (wait_for: approval) at p.yaml:8:9 relies on, is never delivered: the `if:` of job pipeline in .github/workflows/p.yml skips it (job: github.event_name != 'pull_request_review')")
	assert.Contains(t, out, "fix: let job pipeline of .github/workflows/p.yml run on pull_request_review.submitted")

	// A step's `if:` that skips the action skips it as well.
	wf = "on:\n  pull_request_target:\n  pull_request_review:\n" + actionJobs + "        if: ${{ github.event_name == 'pull_request_target' }}\n"
	assert.Contains(t, deliveryFindings(t, approvalPipeline, wf), "skips it (step: ${{ github.event_name == 'pull_request_target' }})")

	// One that reads more than the event is not called a skip, and says it is not checked.
	wf = "on:\n  pull_request_target:\n  pull_request_review:\n" + strings.Replace(actionJobs,
		"    runs-on:", "    if: github.event.pull_request.head.repo.fork == false\n    runs-on:", 1)
	out = deliveryFindings(t, approvalPipeline, wf)
	assert.Contains(t, out, "no problem.")
	assert.Contains(t, out, "unverified  the `if:` of job pipeline in .github/workflows/p.yml (job: github.event.pull_request.head.repo.fork == false) reads more than")
}

func TestDoctorCancelInProgress(t *testing.T) {
	on := "on:\n  pull_request_target:\n  pull_request_review:\n"
	for _, c := range []struct{ concurrency, want string }{
		{"concurrency: {group: g, cancel-in-progress: true}\n", "problem     .github/workflows/p.yml: `concurrency: cancel-in-progress: true`: a run the next event cancels loses its event"},
		{"concurrency: {group: g, cancel-in-progress: \"${{ github.event_name == 'push' }}\"}\n", "problem     .github/workflows/p.yml: `concurrency: cancel-in-progress: ${{ github.event_name == 'push' }}`"},
		{"concurrency: {group: g, cancel-in-progress: false}\n", "ok          concurrency: no workflow that runs the action cancels a run in progress"},
		{"concurrency: {group: g, cancel-in-progress: \"${{ false }}\"}\n", "ok          concurrency: no workflow"},
		{"concurrency: g\n", "ok          concurrency: no workflow"},
	} {
		out := deliveryFindings(t, approvalPipeline, on+c.concurrency+actionJobs)
		assert.Contains(t, out, c.want, c.concurrency)
		if strings.HasPrefix(c.want, "problem") {
			assert.Contains(t, out, "fix: set `cancel-in-progress: false` in the `concurrency:` of .github/workflows/p.yml", c.concurrency)
		}
	}
	jobLevel := strings.Replace(actionJobs, "    runs-on:", "    concurrency: {group: g, cancel-in-progress: true}\n    runs-on:", 1)
	out := deliveryFindings(t, approvalPipeline, on+jobLevel)
	assert.Contains(t, out, "problem     .github/workflows/p.yml, job pipeline: `concurrency: cancel-in-progress: true`")
	assert.Contains(t, out, "fix: set `cancel-in-progress: false` in the `concurrency:` of job pipeline in .github/workflows/p.yml")
}

func TestGitHubExpr(t *testing.T) {
	ctx := ghContext{"github.event_name": {kind: ghStr, s: "issues"}, "github.event.action": {kind: ghStr, s: "assigned"}}
	for expr, want := range map[string]string{
		"github.event_name == 'issues'":                                         "true",
		"github.event_name == 'ISSUES'":                                         "true",
		"${{ github.event_name != 'issues' }}":                                  "false",
		"github['event_name'] == 'issues'":                                      "true",
		"github.event.action == 'opened' || github.event.action == 'closed'":    "false",
		"contains(fromJSON('[\"opened\", \"assigned\"]'), github.event.action)": "true",
		"startsWith(github.event_name, 'pull_request')":                         "false",
		"!(github.event_name == 'issues')":                                      "false",
		"github.actor == 'bot' && github.event_name == 'push'":                  "false",
		"github.actor == 'bot' || github.event_name == 'issues'":                "true",
		"github.actor == 'bot' && github.event_name == 'issues'":                "unknown",
		"success() && github.event_name == 'issues'":                            "unknown",
		"always()":              "true",
		"github.event_name == ": "unknown",
		"'it''s' == 'IT''S'":    "true",
		"1 < 2":                 "true",
	} {
		truthy, known := evalGitHubExpr(expr, ctx).truth()
		got := "unknown"
		if known {
			got = map[bool]string{true: "true", false: "false"}[truthy]
		}
		assert.Equal(t, want, got, expr)
	}
}

// The recommended setup skips review events (their job runs on the merge ref, which the
// state key's environment refuses) and relies on its scheduled sweep to find reviews.
func TestDoctorSweepFindsSkippedReviews(t *testing.T) {
	read := func(path string) *workflow {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", path))
		require.NoError(t, err)
		w, err := parseWorkflow(ghapi.WorkflowFile{Path: ".github/workflows/" + filepath.Base(path), Blob: ghapi.Blob{Text: string(b)}})
		require.NoError(t, err)
		return w
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "setup", "pipelines.yaml"))
	require.NoError(t, err)
	cfg, err := engine.Load("pipelines.yaml", b, gates.Default())
	require.NoError(t, err)
	runs, sweeps := []*workflow{read("docs/setup/pipelines.yml")}, []*workflow{read("docs/setup/sweep.yml")}
	for _, withSweep := range []bool{true, false} {
		d := &doctor{cfg: cfg}
		if withSweep {
			d.checkDelivery(runs, sweeps)
		} else {
			d.checkDelivery(runs, nil)
		}
		var out strings.Builder
		d.print(&out)
		if withSweep {
			assert.Contains(t, out.String(), "\nno problem.", "the recommended setup as written")
			assert.Contains(t, out.String(), "the sweep of .github/workflows/sweep.yml finds the review")
		} else {
			assert.Contains(t, out.String(), "problem     event pull_request_review.submitted")
		}
	}
}

// gatedOnCI is a config whose one pipeline, p, starts on event and waits for CI.
func gatedOnCI(event string) string {
	return "version: 1\npipelines:\n  p:\n    trigger: {event: " + event + "}\n" +
		"    stages: [{id: g, type: gate, conditions: [{check: ci_status}]}]\n"
}
