package state

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func subConfig() *lang.Config {
	return &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{
		{Name: "review-merge", Stages: []*lang.Stage{
			{ID: "review", Type: lang.StagePipeline, Pipeline: "standard-review"},
			{ID: "ready", Type: lang.StageGate},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		}},
		{Name: "standard-review", Stages: []*lang.Stage{
			{ID: "security", Type: lang.StageAgent, Agent: "security"},
			{ID: "quality", Type: lang.StageAgent, Agent: "quality"},
		}},
	}}
}

func subState() *model.State {
	parent := &model.Run{ID: "review-merge/7/1", Pipeline: "review-merge", Subject: "acme/widgets#7",
		Status: model.RunWaiting, Stage: "review", StartedAt: t0, UpdatedAt: at(3),
		Stages: map[string]*model.StageRun{"review": {Status: model.StageWaiting, Attempt: 1, EnteredAt: t0,
			Child: "standard-review/7/1",
			Results: []model.GateResult{{Check: "sub-pipeline", Status: model.GatePending,
				Message: "sub-pipeline run standard-review/7/1 is waiting at quality", Who: "agent quality"}}}}}
	child := &model.Run{ID: "standard-review/7/1", Pipeline: "standard-review", Subject: "acme/widgets#7",
		Status: model.RunWaiting, Stage: "quality", StartedAt: at(1), UpdatedAt: at(3),
		Parent: "review-merge/7/1/review", ParentAttempt: 1, Depth: 1,
		Stages: map[string]*model.StageRun{
			"security": {Status: model.StageSucceeded, Attempt: 1, EnteredAt: at(1)},
			"quality":  {Status: model.StageWaiting, Attempt: 1, EnteredAt: at(2)},
		}}
	return &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{parent, child}}
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
	alone := &model.State{Version: 1, Runs: st.Runs[1:]}
	assert.Contains(t, Render(subConfig(), alone), "**standard-review** · waiting at `quality`")
}

// A finished sub-pipeline run stays in the live state while its parent is open, even
// when a newer run of its pipeline exists; once the parent is finished it is archived.
func TestCompactKeepsChildrenOfOpenParents(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	parent := finishedRun("p", 1, model.RunWaiting, at)
	parent.Stages = map[string]*model.StageRun{"a": {Child: "c/7/1"}, "b": {Child: "c/7/2"}}
	first := finishedRun("c", 1, model.RunCompleted, at)
	first.Parent = "p/7/1/a"
	second := finishedRun("c", 2, model.RunCompleted, at.Add(time.Minute))
	second.Parent = "p/7/1/b"
	st := &model.State{Version: 1, Runs: []*model.Run{parent, first, second}}
	live, archived := Compact(st)
	assert.Empty(t, archived)
	assert.Len(t, live.Runs, 3)

	parent.Status = model.RunCompleted
	live, archived = Compact(st)
	require.Len(t, archived, 1)
	assert.Equal(t, "c/7/1", archived[0].ID)
	assert.Equal(t, "p/7/1/a", live.Past[0].Parent, "the record keeps the link")
}

// A finished grandchild stays while its finished parent is held by an open run above it:
// the merge guard re-checks the whole chain below a run at its merge.
func TestCompactKeepsGrandchildrenOfOpenRuns(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	top := finishedRun("p", 1, model.RunWaiting, at)
	top.Stages = map[string]*model.StageRun{"a": {Child: "c/7/1"}}
	child := finishedRun("c", 1, model.RunCompleted, at)
	child.Parent = "p/7/1/a"
	child.Stages = map[string]*model.StageRun{"g": {Child: "g/7/1"}}
	grand := finishedRun("g", 1, model.RunCompleted, at)
	grand.Parent = "c/7/1/g"
	newer := finishedRun("g", 2, model.RunCompleted, at.Add(time.Minute))
	st := &model.State{Version: 1, Runs: []*model.Run{top, child, grand, newer}}
	live, archived := Compact(st)
	assert.Empty(t, archived)
	assert.Len(t, live.Runs, 4)

	top.Status = model.RunCompleted
	_, archived = Compact(st)
	require.Len(t, archived, 1)
	assert.Equal(t, "g/7/1", archived[0].ID)
}
