package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An answer is handed to the type of the stage it names: a stage that sent nothing out
// refuses it, and the run stays where it is.
func TestAnswerForAStageThatSentNothingOut(t *testing.T) {
	cfg := stepConfig()
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.State.Runs, 1)
	run := res.State.Runs[0]
	require.Equal(t, "ready", run.Stage)
	attempt := run.Stages["ready"].Attempt

	out := Step(cfg, res.State, report(run.ID, "ready", attempt, "complete", nil), f, t0)
	assert.False(t, out.Changed, "a gate takes no report")
	assert.Contains(t, joinLog(out.Log), `refused: "ready" is not an agent stage`)

	failed := model.Input{Key: "wf", Event: "workflow_run.completed", AgentFailure: &model.AgentFailure{Run: run.ID, Stage: "ready", Attempt: attempt}}
	out = Step(cfg, res.State, failed, f, t0)
	assert.False(t, out.Changed, "a gate has no workflow run to fail")
	assert.Contains(t, joinLog(out.Log), `ignored: "ready" is not an agent stage`)
}

func TestWorkerNamesWhoWorksOnAStage(t *testing.T) {
	cfg := stepConfig()
	kind, name := Worker(cfg.Pipelines[0].Stages[1])
	assert.Equal(t, []string{"action", "merge_pr"}, []string{kind, name})
	kind, name = Worker(cfg.Pipelines[0].Stages[0])
	assert.Empty(t, kind+name, "a gate is moved by the step loop itself")
}
