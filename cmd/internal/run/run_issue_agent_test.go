package run

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

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
