package ghfake

import (
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The runs of a workflow the action dispatched are listed as GitHub lists them: newest
// first, with the display title its run-name gives them, and only those created within
// the `created` range.
func TestListWorkflowRunsOfDispatches(t *testing.T) {
	ctx := t.Context()
	now := testClock
	s := widgets(t)
	s.SetClock(func() time.Time { return now })
	c := client(t, s, s.BotToken())
	s.SetFile(testRepo, "main", ".github/workflows/agent.yml",
		"name: agent\nrun-name: \"agent: run ${{ inputs.run }} stage ${{ inputs.stage }} attempt ${{ inputs.attempt }}\"\n"+agentWorkflow[len("name: agent\n"):])
	dispatch := func(attempt string) {
		_, err := c.Actions.CreateWorkflowDispatchEventByFileName(ctx, "acme", "widgets", "agent.yml", github.CreateWorkflowDispatchEventRequest{
			Ref: "main", Inputs: map[string]any{"run": "p/7/1", "stage": "s", "attempt": attempt, "subject": "acme/widgets#7"}})
		require.NoError(t, err)
	}
	dispatch("1")
	now = now.Add(time.Hour)
	dispatch("2")

	runs, _, err := c.Actions.ListWorkflowRunsByFileName(ctx, "acme", "widgets", "agent.yml", &github.ListWorkflowRunsOptions{Event: "workflow_dispatch"})
	require.NoError(t, err)
	require.Len(t, runs.WorkflowRuns, 2)
	assert.Equal(t, "agent: run p/7/1 stage s attempt 2", runs.WorkflowRuns[0].GetDisplayTitle())
	assert.Equal(t, s.Dispatches()[1].RunID, runs.WorkflowRuns[0].GetID())
	assert.Equal(t, now, runs.WorkflowRuns[0].GetCreatedAt().Time)

	runs, _, err = c.Actions.ListWorkflowRunsByFileName(ctx, "acme", "widgets", "agent.yml",
		&github.ListWorkflowRunsOptions{Created: ">=" + now.Add(-time.Minute).Format(time.RFC3339)})
	require.NoError(t, err)
	require.Len(t, runs.WorkflowRuns, 1)
	assert.Equal(t, "agent: run p/7/1 stage s attempt 2", runs.WorkflowRuns[0].GetDisplayTitle())

	runs, _, err = c.Actions.ListWorkflowRunsByFileName(ctx, "acme", "widgets", "other.yml", nil)
	require.NoError(t, err)
	assert.Empty(t, runs.WorkflowRuns)
	runs, _, err = c.Actions.ListWorkflowRunsByFileName(ctx, "acme", "widgets", "agent.yml", &github.ListWorkflowRunsOptions{Event: "push"})
	require.NoError(t, err)
	assert.Empty(t, runs.WorkflowRuns)
}
