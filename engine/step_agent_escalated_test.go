package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// An escalated run moves only on a command: the late report of an attempt whose workflow run
// ended without a report (its retries spent, the run escalated) is refused and logged, and
// the run stays where it stopped; after `/pipeline unblock` the same attempt takes it.
func TestEscalatedRunTakesNoReport(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	cfg.Pipelines[0].Stages[0].OnError = &lang.ErrorPolicy{Retry: 0, Then: lang.TargetEscalate}
	f := humanFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, WorkflowRun: 7}}, f, t0)
	failed := ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "implement", Attempt: 1, Why: "concluded failure", RunID: 7})
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "workflow_run.completed", AgentFailure: failed}, f, t0.Add(time.Minute))
	require.Equal(t, model.RunEscalated, res.State.Runs[0].Status)

	late := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(2*time.Minute))
	assert.Equal(t, model.RunEscalated, late.State.Runs[0].Status)
	assert.Equal(t, "implement", late.State.Runs[0].Stage)
	assert.Contains(t, joinLog(late.Log), "refused: the run is escalated: it moves on only after a /pipeline command")

	f.PR.Comments = []model.IssueComment{command(3, "alice", "/pipeline unblock")}
	unblocked := Step(cfg, res.State, model.Input{Key: "k3", Event: "issue_comment.created"}, f, t0.Add(3*time.Minute))
	require.Equal(t, model.RunWaiting, unblocked.State.Runs[0].Status)
	after := Step(cfg, unblocked.State, reportOn(unblocked.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(4*time.Minute))
	assert.Equal(t, "analyze", after.State.Runs[0].Stage, "unblocked, the attempt takes its report")
}
