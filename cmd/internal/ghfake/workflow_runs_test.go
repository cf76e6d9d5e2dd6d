package ghfake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The run a workflow_dispatch started names the workflow file, the branch it ran on, the
// event and the account whose token dispatched it, as GitHub's workflow_run does; a run
// someone starts themselves names theirs.
func TestWorkflowRunsSayWhoStartedThemWhereAndHow(t *testing.T) {
	s := widgets(t)
	s.SetFile(testRepo, "main", ".github/workflows/agent.yml", agentWorkflow)
	_, err := client(t, s, s.Token("alice")).Actions.CreateWorkflowDispatchEventByFileName(t.Context(), "acme", "widgets",
		"agent.yml", github.CreateWorkflowDispatchEventRequest{Ref: "main", Inputs: map[string]any{"run": "r", "stage": "s"}})
	require.NoError(t, err)
	require.Len(t, s.Dispatches(), 1)
	assert.Equal(t, "alice", s.Dispatches()[0].Actor)
	run := func(ev Event) map[string]any {
		var p map[string]any
		require.NoError(t, json.Unmarshal(ev.Payload, &p))
		return p
	}
	p := run(s.CompleteDispatch(testRepo, 0, "failure"))
	assert.Equal(t, ".github/workflows/agent.yml", dig(t, p, "workflow_run", "path"))
	assert.Equal(t, "main", dig(t, p, "workflow_run", "head_branch"))
	assert.Equal(t, "workflow_dispatch", dig(t, p, "workflow_run", "event"))
	assert.Equal(t, "alice", dig(t, p, "workflow_run", "actor", "login"))
	assert.Equal(t, "alice", dig(t, p, "workflow_run", "triggering_actor", "login"))
	assert.Equal(t, "alice", dig(t, p, "sender", "login"))
	assert.EqualValues(t, s.Dispatches()[0].RunID, dig(t, p, "workflow_run", "id"))

	s.SetFile(testRepo, "alice/agent", ".github/workflows/agent.yml", strings.Replace(agentWorkflow, "on:\n", "on:\n  push: {}\n", 1))
	ev, err := s.RunWorkflow(testRepo, WorkflowRun{Workflow: "agent.yml", Branch: "alice/agent", Event: "push", Actor: "alice",
		Title: "agent: run p/7/1 stage s attempt 1", Conclusion: "failure"})
	require.NoError(t, err)
	p = run(ev)
	assert.Equal(t, "alice/agent", dig(t, p, "workflow_run", "head_branch"))
	assert.Equal(t, "push", dig(t, p, "workflow_run", "event"))
	assert.Equal(t, "agent: run p/7/1 stage s attempt 1", dig(t, p, "workflow_run", "display_title"))
	assert.Equal(t, "agent", dig(t, p, "workflow_run", "name"), "the workflow's name")
	assert.Equal(t, "alice", dig(t, p, "workflow_run", "triggering_actor", "login"))
	assert.Len(t, s.Dispatches(), 1, "a run someone started is no dispatch of the action")

	_, err = s.RunWorkflow(testRepo, WorkflowRun{Workflow: "other.yml", Branch: "main", Event: "workflow_dispatch", Actor: "alice"})
	assert.ErrorContains(t, err, "no workflow .github/workflows/other.yml on branch main")
	_, err = s.RunWorkflow(testRepo, WorkflowRun{Workflow: "agent.yml", Branch: "nope", Event: "workflow_dispatch", Actor: "alice"})
	assert.ErrorContains(t, err, `no branch "nope"`)
	_, err = s.RunWorkflow(testRepo, WorkflowRun{Workflow: "agent.yml", Branch: "main", Event: "workflow_dispatch", Actor: "mallory"})
	assert.ErrorContains(t, err, "mallory has read access")
	_, err = s.RunWorkflow(testRepo, WorkflowRun{Workflow: "agent.yml", Branch: "main", Event: "push", Actor: "alice"})
	assert.ErrorContains(t, err, "has no push trigger")
}

// The workflow_run of a dispatched run, and of one someone started, carry every key of a
// real delivery.
func TestWorkflowRunPayloadShapes(t *testing.T) {
	s := widgets(t)
	s.SetFile(testRepo, "main", ".github/workflows/agent.yml", agentWorkflow)
	_, err := client(t, s, s.BotToken()).Actions.CreateWorkflowDispatchEventByFileName(t.Context(), "acme", "widgets",
		"agent.yml", github.CreateWorkflowDispatchEventRequest{Ref: "main"})
	require.NoError(t, err)
	assertShape(t, s.CompleteDispatch(testRepo, 0, "failure"), "workflow_run/requested.json", [2]string{"workflow_run", "completed"})
	ev, err := s.RunWorkflow(testRepo, WorkflowRun{Workflow: "agent.yml", Branch: "main", Event: "workflow_dispatch", Actor: "alice", Conclusion: "failure"})
	require.NoError(t, err)
	assertShape(t, ev, "workflow_run/requested.json", [2]string{"workflow_run", "completed"})
}

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

// Re-running a workflow run's failed jobs puts them back in the queue — the jobs that passed
// stay — and records who asked; a check step then plays the new attempt's result. An
// unknown run is 404.
func TestRerunFailedJobs(t *testing.T) {
	s, c := widgetsAsBot(t)
	s.CompleteJob(testRepo, 7, "ci", "test", "failure")
	s.CompleteJob(testRepo, 7, "ci", "lint", "success")
	id := s.RunOf(testRepo, 7, "ci")
	require.NotZero(t, id)
	resp, err := c.Actions.RerunFailedJobsByID(t.Context(), "acme", "widgets", id)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, []world.Rerun{{Repo: testRepo, RunID: id, Workflow: "ci", Actor: BotLogin, Jobs: []string{"test"}}}, s.Reruns())
	assert.Equal(t, map[string]string{"test": "queued/", "lint": "completed/success"}, s.JobsOf(testRepo, 7))

	s.CompleteJob(testRepo, 7, "ci", "test", "success")
	assert.Equal(t, map[string]string{"test": "completed/success", "lint": "completed/success"}, s.JobsOf(testRepo, 7))
	assert.Equal(t, id, s.RunOf(testRepo, 7, "ci"), "the new attempt is the same run")

	_, err = c.Actions.RerunFailedJobsByID(t.Context(), "acme", "widgets", id+1000)
	assert.Equal(t, http.StatusNotFound, err.(*github.ErrorResponse).Response.StatusCode)
}
