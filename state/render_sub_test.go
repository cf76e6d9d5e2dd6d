package state

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine"
)

func subConfig() *engine.Config {
	return &engine.Config{Version: 1, Pipelines: []*engine.Pipeline{
		{Name: "review-merge", Stages: []*engine.Stage{
			{ID: "review", Type: engine.StagePipeline, Pipeline: "standard-review"},
			{ID: "ready", Type: engine.StageGate},
			{ID: "merge", Type: engine.StageAction, Action: engine.ActionMergePR},
		}},
		{Name: "standard-review", Stages: []*engine.Stage{
			{ID: "security", Type: engine.StageAgent, Agent: "security"},
			{ID: "quality", Type: engine.StageAgent, Agent: "quality"},
		}},
	}}
}

func subState() *engine.State {
	parent := &engine.Run{ID: "review-merge/7/1", Pipeline: "review-merge", Subject: "acme/widgets#7",
		Status: engine.RunWaiting, Stage: "review", StartedAt: t0, UpdatedAt: at(3),
		Stages: map[string]*engine.StageRun{"review": {Status: engine.StageWaiting, Attempt: 1, EnteredAt: t0,
			Child: "standard-review/7/1",
			Results: []engine.GateResult{{Check: "sub-pipeline", Status: engine.GatePending,
				Message: "sub-pipeline run standard-review/7/1 is waiting at quality", Who: "agent quality"}}}}}
	child := &engine.Run{ID: "standard-review/7/1", Pipeline: "standard-review", Subject: "acme/widgets#7",
		Status: engine.RunWaiting, Stage: "quality", StartedAt: at(1), UpdatedAt: at(3),
		Parent: "review-merge/7/1/review", ParentAttempt: 1, Depth: 1,
		Stages: map[string]*engine.StageRun{
			"security": {Status: engine.StageSucceeded, Attempt: 1, EnteredAt: at(1)},
			"quality":  {Status: engine.StageWaiting, Attempt: 1, EnteredAt: at(2)},
		}}
	return &engine.State{Version: 1, Subject: "acme/widgets#7", Runs: []*engine.Run{parent, child}}
}

func TestRenderNestsChildUnderItsStage(t *testing.T) {
	st := subState()
	got := Render(subConfig(), st)
	checkGolden(t, filepath.Join("testdata", "sub_pipeline.md"), got)
	assert.Equal(t, 1, strings.Count(got, "**review-merge** ·"), "one top-level section")
	assert.NotContains(t, got, "\n**standard-review** · ", "the child has no section of its own")
	assert.Contains(t, got, "| \u00a0\u00a0↳ **standard-review** · run `standard-review/7/1` | ⏳ waiting at `quality` |")
	assert.Contains(t, got, "| \u00a0\u00a0\u00a0\u00a0· quality | ⏳ waiting |")
	// The child rows follow the review row, before the next stage of the parent.
	assert.Less(t, strings.Index(got, "| review |"), strings.Index(got, "· security"))
	assert.Less(t, strings.Index(got, "· quality"), strings.Index(got, "| ready |"))

	// A child whose parent is not in the state is shown as a run of its own.
	alone := &engine.State{Version: 1, Runs: st.Runs[1:]}
	assert.Contains(t, Render(subConfig(), alone), "**standard-review** · waiting at `quality`")
}
