package ghfake

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agentWorkflow is an agent's workflow as the README shows it: workflow_dispatch with the
// inputs pipeline-action sends.
const agentWorkflow = `name: agent
on:
  workflow_dispatch:
    inputs:
      run: {required: true}
      run_id: {required: false}
      stage: {required: true}
      attempt: {required: true}
      subject: {required: true}
      action: {required: false}
      context: {required: false}
jobs:
  work:
    runs-on: ubuntu-latest
    steps: [{run: "true"}]
`

func TestWorkflowDispatchIsCheckedAsGitHubChecksIt(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	dispatch := func(file, ref string, inputs map[string]any) (int, string) {
		resp, err := c.Actions.CreateWorkflowDispatchEventByFileName(ctx, "acme", "widgets", file,
			github.CreateWorkflowDispatchEventRequest{Ref: ref, Inputs: inputs})
		msg := ""
		if er, ok := err.(*github.ErrorResponse); ok {
			msg = er.Message
		}
		return resp.StatusCode, msg
	}
	code, _ := dispatch("agent.yml", "main", nil)
	assert.Equal(t, http.StatusNotFound, code, "no such workflow file")

	s.SetFile(testRepo, "main", ".github/workflows/push.yml", "on: push\njobs: {}\n")
	code, msg := dispatch("push.yml", "main", nil)
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Equal(t, "Workflow does not have 'workflow_dispatch' trigger", msg)

	s.SetFile(testRepo, "main", ".github/workflows/agent.yml", agentWorkflow)
	code, msg = dispatch("agent.yml", "main", map[string]any{"run": "r", "extra": "x", "bogus": "y"})
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Equal(t, `Unexpected inputs provided: ["bogus", "extra"]`, msg)

	code, _ = dispatch("agent.yml", "other", map[string]any{"run": "r"})
	assert.Equal(t, http.StatusNotFound, code, "not on that ref")

	code, _ = dispatch("agent.yml", "main", map[string]any{"run": "r", "stage": "s"})
	assert.Equal(t, http.StatusNoContent, code)

	s.SetFile(testRepo, "main", ".github/workflows/bare.yml", "on: [push, workflow_dispatch]\njobs: {}\n")
	code, _ = dispatch("bare.yml", "main", nil)
	assert.Equal(t, http.StatusNoContent, code)
	require.Len(t, s.Dispatches(), 2)
}

func TestRepositoryDispatchPayloadLimit(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	raw := []byte(`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11}`)
	msg := github.DispatchRequestOptions{EventType: "agent", ClientPayload: (*jsonRaw)(&raw).msg()}
	_, resp, err := c.Repositories.Dispatch(ctx, "acme", "widgets", msg)
	require.Error(t, err)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Empty(t, s.Dispatches())
}

func TestAddAssigneesLeavesOutWhoCannotBeAssigned(t *testing.T) {
	ctx := t.Context()
	s, c := widgetsAsBot(t)
	is, _, err := c.Issues.AddAssignees(ctx, "acme", "widgets", 7, []string{"alice", "stranger"})
	require.NoError(t, err)
	require.Len(t, is.Assignees, 1)
	assert.Equal(t, "alice", is.Assignees[0].GetLogin())
	assert.Equal(t, "alice", is.Assignee.GetLogin())
	assert.Equal(t, []string{"alice"}, s.Assignees(testRepo, 7))
	pr, _, err := c.PullRequests.Get(ctx, "acme", "widgets", 7)
	require.NoError(t, err)
	require.Len(t, pr.Assignees, 1)
}

type jsonRaw []byte

func (j *jsonRaw) msg() *json.RawMessage { m := json.RawMessage(*j); return &m }
