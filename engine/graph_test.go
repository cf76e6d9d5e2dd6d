package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// autoMerge is the reference pipeline: wait for review and CI, then merge.
func autoMerge() *lang.Pipeline {
	return &lang.Pipeline{
		Name: "auto-merge",
		Stages: []*lang.Stage{
			{ID: "ready", Type: lang.StageGate},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		},
	}
}

// review is a pipeline with hyphenated ids, explicit terminals and a loop.
func review() *lang.Pipeline {
	return &lang.Pipeline{
		Name: "review-loop",
		Stages: []*lang.Stage{
			{ID: "ci-green", Type: lang.StageGate, OnFail: lang.TargetFail},
			{ID: "code-review", Type: lang.StageGate, OnPass: "label-ready", OnFail: "ci-green"},
			{ID: "label-ready", Type: lang.StageAction, Action: lang.ActionAddLabel, OnFailure: lang.TargetFail},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete, OnFailure: "code-review"},
		},
	}
}

func TestMermaid(t *testing.T) {
	tests := []struct {
		name string
		p    *lang.Pipeline
		run  *model.Run
	}{
		{name: "plain", p: autoMerge()},
		{name: "hyphens_and_loops", p: review()},
		{name: "waiting", p: autoMerge(), run: &model.Run{
			Status: model.RunWaiting, Stage: "ready",
			Stages: map[string]*model.StageRun{"ready": {Status: model.StageWaiting}},
		}},
		{name: "retrying", p: review(), run: &model.Run{
			Status: model.RunRunning, Stage: "merge",
			Stages: map[string]*model.StageRun{
				"ci-green":    {Status: model.StagePassed},
				"code-review": {Status: model.StagePassed},
				"label-ready": {Status: model.StageSucceeded},
				"merge":       {Status: model.StageRetrying},
			},
		}},
		{name: "completed", p: autoMerge(), run: &model.Run{
			Status: model.RunCompleted, Stage: "merge",
			Stages: map[string]*model.StageRun{"ready": {Status: model.StagePassed}, "merge": {Status: model.StageSucceeded}},
		}},
		{name: "failed", p: review(), run: &model.Run{
			Status: model.RunFailed, Stage: "ci-green",
			Stages: map[string]*model.StageRun{"ci-green": {Status: model.StageFailed}},
		}},
		{name: "odd_ids", p: &lang.Pipeline{Name: "odd", Stages: []*lang.Stage{
			{ID: "end", Type: lang.StageGate, OnFail: "escalate"},
			{ID: "a.b", Type: lang.StageAction, OnSuccess: "a-b"},
			{ID: "a-b", Type: lang.StageAction, OnFailure: "cancel"},
			{ID: `say "hi"`, Type: lang.StageGate},
			{ID: "`**md**` <b>x</b>\r\ny", Type: lang.StageGate},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := graph.Mermaid(tt.p, tt.run)
			assert.Equal(t, got, graph.Mermaid(tt.p, tt.run), "deterministic")
			checkGraphGolden(t, filepath.Join("testdata", "graph", tt.name+".mmd"), got)
		})
	}
}

func TestMermaidNil(t *testing.T) {
	assert.Empty(t, graph.Mermaid(nil, nil))
}

func TestMermaidIDs(t *testing.T) {
	got := graph.Mermaid(&lang.Pipeline{Stages: []*lang.Stage{
		{ID: "a-b", Type: lang.StageGate},
		{ID: "a_b", Type: lang.StageGate},
	}}, nil)
	assert.Contains(t, got, `s_a_b{"a-b"}`)
	assert.Contains(t, got, `s_a_b_2{"a_b"}`)
	assert.Contains(t, got, "s_a_b -->|pass| s_a_b_2")
	assert.Contains(t, got, "s_a_b_2 -->|pass| complete")
	assert.Contains(t, got, `complete(["complete"])`)
}

// checkGraphGolden compares got with the file at path, or rewrites it under -update.
func checkGraphGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)
}
