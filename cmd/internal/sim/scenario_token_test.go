package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReportFromUnstartedAgent: issue-to-pr with its agent dispatched by a comment that a
// GitHub Actions workflow receives (the example's says an app receives it). With
// GITHUB_TOKEN that comment starts no workflow, so a report from it cannot happen and the
// scenario says so at the step; with an app token it plays.
func TestReportFromUnstartedAgent(t *testing.T) {
	src := runtest.Read(t, "../../../examples/issue-to-pr/scenario.yaml")
	example := runtest.Read(t, "../../../examples/issue-to-pr/pipelines.yaml")
	require.Contains(t, example, ", listener: app}")
	cfg := []byte(strings.Replace(example, ", listener: app}", "}", 1))
	require.Contains(t, src, "\ntoken: app")
	for _, tc := range []struct {
		name, scenario string
		code           int
	}{
		{"app token", src, 0},
		{"GITHUB_TOKEN", strings.Replace(src, "\ntoken: app", "\ntoken: github", 1), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "pipelines.yaml"), cfg, 0o600))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(tc.scenario), 0o600))
			code, out, errOut := simulate(t, dir)
			require.Equal(t, tc.code, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
			if tc.code == 0 {
				assert.Contains(t, out, "PASS: every expectation holds")
				assert.Contains(t, out, "the action's own issue_comment.created #4")
				return
			}
			assert.Contains(t, errOut, `scenario.yaml:16:5: report: agent "feat-dev" of stage "implement" is dispatched by a comment that a GitHub Actions workflow receives; the action made it with GITHUB_TOKEN, which starts no workflow, so the agent never ran`)
		})
	}
}

// TestClosePRMergedByAction: the closed event of the action's own merge starts no workflow
// with GITHUB_TOKEN (close_pr delivers nothing, and says why); with an app token it was
// delivered when the PR merged, so close_pr of it is a mistake of the scenario.
func TestClosePRMergedByAction(t *testing.T) {
	const body = `repo: acme/widgets
users: {alice: write, dev: write}
steps:
  - open_pr: {number: 7, author: dev, head: feat/a}
  - check: {pr: 7, name: test, conclusion: success}
  - review: {pr: 7, user: alice, state: approved}
  - close_pr: {pr: 7}
expect:
  prs: {7: {merged: true}}
  runs: [{pipeline: auto-merge, subject: "#7", status: completed}]
`
	code, out, errOut := simulate(t, writeScenario(t, body))
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "(GitHub starts no workflow for the action's own pull_request.closed #7, push to pipeline-action/state, push to main, push to pipeline-action/state: it ran with GITHUB_TOKEN)")
	assert.Contains(t, out, "close_pr #7: the action merged it with GITHUB_TOKEN, so GitHub starts no workflow for its closing")

	code, out, errOut = simulate(t, writeScenario(t, strings.Replace(body, "repo: acme/widgets\n", "repo: acme/widgets\ntoken: app\n", 1)))
	require.Equal(t, 2, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "the action's own pull_request.closed #7, push to pipeline-action/state, push to main, push to pipeline-action/state, delivered (token: app)")
	assert.Contains(t, out, "(the action's workflows do not run on push to main)")
	assert.Contains(t, errOut, "scenario.yaml:8:5: close_pr: #7 was merged by the action; with token: app its pull_request.closed was delivered then")
}

func TestScenarioToken(t *testing.T) {
	code, _, errOut := simulate(t, writeScenario(t, "repo: acme/widgets\ntoken: pat\nsteps: []\n"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `"token" must be "github" (the workflow's GITHUB_TOKEN, the default) or "app" (a GitHub App's installation token), not "pat"`)
}

// TestLabelByGitHubToken: a label another workflow adds with GITHUB_TOKEN starts no
// workflow, so the pipeline triggered on it does not start.
func TestLabelByGitHubToken(t *testing.T) {
	code, out, errOut := simulate(t, writeScenario(t, `repo: acme/widgets
users: {alice: write, dev: write}
steps:
  - open_pr: {number: 7, author: dev, head: feat/a, deliver: false}
  - label: {pr: 7, add: [automerge], user: "github-actions[bot]"}
expect:
  prs: {7: {labels: [automerge], comments: 0}}
`))
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "label #7 +[automerge] -[] by github-actions[bot] (another workflow's GITHUB_TOKEN: GitHub starts no workflow)")
	assert.Contains(t, out, "(the event is lost: not delivered)")
}

// TestCheckOnTokenUpdate: a branch update pushed with a workflow's GITHUB_TOKEN starts no
// workflow: its synchronize is not delivered, and a check step playing an Actions job on
// that head fails at the step; a third-party app's check there plays.
func TestCheckOnTokenUpdate(t *testing.T) {
	const body = `repo: acme/widgets
users: {alice: write, dev: write}
steps:
  - open_pr: {number: 7, author: dev, head: feat/a}
  - update_branch: {pr: 7, user: "github-actions[bot]"}
  - check: {pr: 7, name: test, conclusion: success, app: circleci}
  - check: {pr: 7, name: test, conclusion: success}
expect:
  prs: {7: {merged: false}}
`
	code, out, errOut := simulate(t, writeScenario(t, body))
	require.Equal(t, 2, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "update_branch #7 by github-actions[bot] (another workflow's GITHUB_TOKEN: GitHub starts no workflow)")
	assert.Contains(t, out, `check "test" on #7: success`, "an app's check plays")
	assert.Contains(t, errOut, "scenario.yaml:7:5: check: the head of #7 (")
	assert.Contains(t, errOut, "is a branch update pushed with a workflow's GITHUB_TOKEN, for which GitHub starts no workflow, so no Actions job ran on it")

	code, out, errOut = simulate(t, writeScenario(t, strings.Replace(body, `user: "github-actions[bot]"`, "user: alice", 1)))
	require.Equal(t, 0, code, "a person's update starts CI\nstdout:\n%s\nstderr:\n%s", out, errOut)
}
