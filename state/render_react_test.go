package state

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func TestRenderStaleStageAndRoundTrip(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#7", Runs: []*model.Run{{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "merge",
		StartedAt: t0, Stages: map[string]*model.StageRun{
			"ready": {Status: model.StageStale, Attempt: 1, EnteredAt: t0, Stale: &model.Stale{At: at(5),
				Why: "invalidated on pull_request.synchronize (head bbbbbbb)", Verdict: lang.VerdictApprove, SHA: "aaaa"}},
			"merge": {Status: model.StageWaiting, Attempt: 1, EnteredAt: t0},
		}}}}
	out := Render(testConfig(), st)
	assert.Contains(t, out, "♻️ stale — invalidated on pull_request.synchronize (head bbbbbbb)")

	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	back, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	require.NotNil(t, back.Runs[0].Stages["ready"].Stale)
	assert.Equal(t, lang.VerdictApprove, back.Runs[0].Stages["ready"].Stale.Verdict)
	assert.True(t, back.Runs[0].Stages["ready"].Stale.At.Equal(at(5)))
}

func TestSharedAndRunVariablesRoundTripAndRender(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#7",
		Shared: map[string]any{"triaged_by": "triage:1", "title": "<!-- pipeline-action @org/team #12 `x`"},
		Runs: []*model.Run{{ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7", Status: model.RunWaiting,
			Stage: "ready", StartedAt: t0, Variables: map[string]any{"tries": float64(2)},
			Stages: map[string]*model.StageRun{"ready": {Status: model.StageWaiting, Attempt: 1, EnteredAt: t0}}}}}
	out := Render(testConfig(), st)
	assert.Contains(t, out, "<sub>Variables: `tries` = `2`</sub>")
	assert.Contains(t, out, "<sub>Shared variables: `title` = ")
	assert.Contains(t, out, "`triaged_by` = `\"triage:1\"`")
	assert.NotContains(t, out, "<!-- pipeline-action @", "a value cannot forge a marker")

	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	back, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, st.Shared, back.Shared)
	assert.Equal(t, st.Runs[0].Variables, back.Runs[0].Variables)

	file, err := EncodeFile(st)
	require.NoError(t, err)
	fromFile, err := DecodeFile(file, "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, st.Shared, fromFile.Shared)
	assert.Equal(t, st.Runs[0].Variables, fromFile.Runs[0].Variables)

	// A state without them (written before they existed) decodes with none.
	old, err := DecodeFile(`{"version":1,"subject":"acme/widgets#7","seq":1,"runs":[]}`, "acme/widgets#7")
	require.NoError(t, err)
	assert.Nil(t, old.Shared)
}
