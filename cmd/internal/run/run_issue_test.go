package run

import (
	"strconv"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const issueRunConfig = `version: 1
agents:
  dev-bot: {dispatch: comment, body: "@dev-bot implement"}
pipelines:
  implement:
    trigger: {event: issues.labeled, conditions: {label: feature}}
    stages:
      - {id: implement, type: agent, agent: dev-bot, on_complete: ready}
      - id: ready
        type: gate
        conditions: [{check: label_present, label: ship-it}]
        on_pass: merge
      - {id: merge, type: action, action: merge_pr}
`

// issueState reads the state file of issue n from the state branch.
func (h *harness) issueState(n int) *model.State {
	h.T.Helper()
	text, ok := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)[state.SubjectFile(false, n)]
	require.True(h.T, ok, "the state file of issue #%d", n)
	st, err := state.DecodeFile(text, "acme/widgets#"+strconv.Itoa(n))
	require.NoError(h.T, err)
	return st
}

// TestReportPRAssociatesAnIssuesRun: `report --pr 9` of an issue's run associates #9; #9's
// state records the follower, and a label on #9 then moves the issue's run to the merge
// of #9, in one query for #9 and one for the issue.
func TestReportPRAssociatesAnIssuesRun(t *testing.T) {
	h := newHarness(t, issueRunConfig)
	h.Fake.OpenIssue("acme/widgets", ghfake.IssueOptions{Number: 4, Author: "alice"})
	code, log, _, _ := h.Deliver(h.Fake.Label("acme/widgets", 4, "feature", true))
	require.Equal(t, 0, code, log)
	assert.Equal(t, "implement", h.issueState(4).Runs[0].Stage)
	h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 9, Author: "dev", Head: "feat-4"})

	env := runtest.Command(h.Fake, h.Fake.BotToken())
	code, out := reportOut(t, env, "", "--run", "implement/4/1", "--stage", "implement", "--attempt", "1",
		"--nonce", h.issueState(4).Runs[0].Stages["implement"].Nonce, "--verdict", "complete", "--pr", "9")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "pull request #9 is associated with it")
	run := h.issueState(4).Runs[0]
	assert.Equal(t, "ready", run.Stage)
	assert.Equal(t, 9, model.RunPR(run))
	assert.Equal(t, []model.Follower{{Issue: 4, Run: "implement/4/1"}}, h.stateOf(9).Followers)

	h.Fake.ResetStats()
	code, log, _, _ = h.Deliver(h.Fake.Label("acme/widgets", 9, "ship-it", true))
	require.Equal(t, 0, code, log)
	assert.True(t, h.Fake.PR("acme/widgets", 9).Merged, log)
	assert.Equal(t, model.RunCompleted, h.issueState(4).Runs[0].Status)
	assert.Equal(t, 1, h.Fake.Stats()["pulls/merge"])
}

// stateOf reads the state of PR n from the state branch.
func (h *harness) stateOf(n int) *model.State {
	h.T.Helper()
	text, ok := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)[state.SubjectFile(true, n)]
	require.True(h.T, ok, "the state file of #%d", n)
	st, err := state.DecodeFile(text, "acme/widgets#"+strconv.Itoa(n))
	require.NoError(h.T, err)
	return st
}

const issueWorkflowAgentConfig = `version: 1
agents:
  coder: {dispatch: workflow, workflow: agent-coder.yml}
pipelines:
  implement:
    trigger: {event: issues.labeled, conditions: {label: feature}}
    stages:
      - {id: implement, type: agent, agent: coder, on_complete: complete, on_error: escalate}
`

const coderWorkflow = `name: agent-coder
run-name: "agent: run ${{ inputs.run }} stage ${{ inputs.stage }} attempt ${{ inputs.attempt }}"
on:
  workflow_dispatch:
    inputs:
      run: {required: true}
      stage: {required: true}
      attempt: {required: true}
      subject: {required: true}
      action: {required: false}
      context: {required: false}
      nonce: {required: false}
jobs:
  work:
    runs-on: ubuntu-latest
    steps: [{run: "true"}]
`

// The end of an agent's workflow run without a report, for an issue's run: its run id names
// an issue, which is read as one (a pull request's query fails on it), and the agent error
// is applied to the issue's run.
func TestAgentFailureOfAnIssuesRun(t *testing.T) {
	h := newHarness(t, issueWorkflowAgentConfig)
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/agent-coder.yml", coderWorkflow)
	h.Fake.OpenIssue("acme/widgets", ghfake.IssueOptions{Number: 4, Author: "alice"})
	code, log, _, _ := h.Deliver(h.Fake.Label("acme/widgets", 4, "feature", true))
	require.Equal(t, 0, code, log)
	ds := h.Fake.Dispatches()
	require.Len(t, ds, 1, log)
	assert.Equal(t, "implement/4/1", ds[0].Inputs["run"])

	code, log, _, _ = h.Deliver(h.Fake.CompleteDispatch("acme/widgets", 0, "failure"))
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "#4 is not a pull request; reading it as an issue")
	run := h.issueState(4).Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status, log)
	assert.Contains(t, run.Message, "agent coder ended without a report")
}
