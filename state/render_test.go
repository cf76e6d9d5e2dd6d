package state

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

var update = flag.Bool("update", false, "rewrite golden files")

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func testConfig() *lang.Config {
	return &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{
		{
			Name: "auto-merge", Description: "Merge reviewed, green PRs into main",
			Stages: []*lang.Stage{
				{ID: "ready", Type: lang.StageGate},
				{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
			},
		},
		{
			Name: "label-sync",
			Stages: []*lang.Stage{
				{ID: "has-label", Type: lang.StageGate, OnFail: lang.TargetFail},
				{ID: "mark", Type: lang.StageAction, Action: lang.ActionAddLabel},
			},
		},
	}}
}

func waitingRun() *model.Run {
	return &model.Run{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7",
		Status: model.RunWaiting, Stage: "ready", StartedAt: t0, UpdatedAt: at(5),
		Stages: map[string]*model.StageRun{"ready": {
			Status: model.StageWaiting, Attempt: 1, EnteredAt: t0,
			Results: []model.GateResult{
				{Check: "human_approved", Status: model.GatePending, Message: "needs 1 approving review from someone with write access; has 0", Who: "a reviewer with write access"},
				{Check: "no_changes_requested", Status: model.GatePass, Message: "no changes requested"},
				{Check: "ci_status", Status: model.GateFail, Message: `check "test" failed`, Who: "CI on abc1234"},
				{Check: "label_present", Status: model.GateFail, Optional: true, Message: `needs label "automerge"`},
				{Check: "mergeable", Status: model.GateError, Message: "mergeability <unknown> | not computed yet", Who: "GitHub"},
			},
		}},
		History: []model.Transition{{At: t0, Actor: "dev", To: "ready", Why: "pull_request.opened"}},
	}
}

func retryingRun() *model.Run {
	return &model.Run{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7",
		Status: model.RunWaiting, Stage: "merge", StartedAt: t0, UpdatedAt: at(30),
		Stages: map[string]*model.StageRun{
			"ready": {Status: model.StagePassed, Attempt: 1, EnteredAt: t0},
			"merge": {Status: model.StageRetrying, Attempt: 1, Tries: 2, EnteredAt: at(20),
				Message: "merge refused: Pull Request is not mergeable; tried 2 times; trying again on the next event"},
		},
		History: []model.Transition{
			{At: t0, Actor: "dev", To: "ready", Why: "pull_request.opened"},
			{At: at(20), Actor: "alice", From: "ready", To: "merge", Why: "all conditions hold"},
		},
	}
}

func completedRun() *model.Run {
	r := retryingRun()
	r.Status = model.RunCompleted
	r.Stages["merge"] = &model.StageRun{Status: model.StageSucceeded, Attempt: 1, EnteredAt: at(20)}
	r.History = append(r.History, model.Transition{At: at(40), Actor: "github-actions[bot]", From: "merge", To: "complete", Why: "merged"})
	return r
}

func cancelledRun() *model.Run {
	r := waitingRun()
	r.Status = model.RunCancelled
	r.Message = "pull request closed"
	r.Stages["ready"].Status = model.StageCancelled
	r.History = append(r.History, model.Transition{At: at(90), Actor: "dev", From: "ready", To: engine.TargetCancelled, Why: "pull request closed"})
	return r
}

func labelRun() *model.Run {
	return &model.Run{
		ID: "label-sync/7/1", Pipeline: "label-sync", Subject: "acme/widgets#7",
		Status: model.RunFailed, Stage: "has-label", StartedAt: at(10), UpdatedAt: at(11),
		Message: `label "sync" missing`,
		Stages:  map[string]*model.StageRun{"has-label": {Status: model.StageFailed, Attempt: 1, EnteredAt: at(10)}},
		History: []model.Transition{
			{At: at(10), Actor: "dev", To: "has-label", Why: "pull_request.labeled"},
			{At: at(11), Actor: "dev", From: "has-label", To: "fail", Why: `label "sync" missing`},
		},
	}
}

func renamedRun() *model.Run {
	r := retryingRun()
	r.Pipeline = "automerge-old"
	r.ID = "automerge-old/7/1"
	return r
}

func state(runs ...*model.Run) *model.State {
	return &model.State{Version: 1, Subject: "acme/widgets#7", Seq: len(runs), Runs: runs}
}

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		st   *model.State
	}{
		{name: "waiting_gate", st: state(waitingRun())},
		{name: "retrying_merge", st: state(retryingRun())},
		{name: "completed", st: state(completedRun())},
		{name: "cancelled", st: state(cancelledRun())},
		{name: "two_runs", st: state(waitingRun(), labelRun())},
		{name: "missing_pipeline", st: state(renamedRun())},
		{name: "no_runs", st: state()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(testConfig(), tt.st)
			assert.Equal(t, got, Render(testConfig(), tt.st), "deterministic")
			assert.NotContains(t, got, "<!--", "rendered text never holds a marker")
			checkGolden(t, filepath.Join("testdata", tt.name+".md"), got)
		})
	}
}

func TestRenderEscapesMarker(t *testing.T) {
	r := waitingRun()
	fake, err := Encode(&model.State{Version: 1, Subject: "evil#1"})
	require.NoError(t, err)
	r.Stages["ready"].Results[0].Message = fake
	r.History[0].Why = fake
	body, err := Body(testConfig(), state(r))
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(body, markerPrefix))
	st, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, "acme/widgets#7", st.Subject)
}

func TestRenderNil(t *testing.T) {
	got := Render(nil, nil)
	assert.Contains(t, got, "No pipeline has run here yet.")
	got = Render(nil, state(waitingRun()))
	assert.Contains(t, got, "no longer in the config")
	assert.NotContains(t, got, "```mermaid")
}

// checkGolden compares got with the file at path, or rewrites it under -update.
func checkGolden(t *testing.T, path, got string) {
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
