package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
