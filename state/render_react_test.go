package state

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
)

func TestRenderStaleStageAndRoundTrip(t *testing.T) {
	st := &engine.State{Version: 1, Subject: "acme/widgets#7", Runs: []*engine.Run{{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", Subject: "acme/widgets#7", Status: engine.RunWaiting, Stage: "merge",
		StartedAt: t0, Stages: map[string]*engine.StageRun{
			"ready": {Status: engine.StageStale, Attempt: 1, EnteredAt: t0, Stale: &engine.Stale{At: at(5),
				Why: "invalidated on pull_request.synchronize (head bbbbbbb)", Verdict: engine.VerdictApprove, SHA: "aaaa"}},
			"merge": {Status: engine.StageWaiting, Attempt: 1, EnteredAt: t0},
		}}}}
	out := Render(testConfig(), st)
	assert.Contains(t, out, "♻️ stale — invalidated on pull_request.synchronize (head bbbbbbb)")

	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	back, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	require.NotNil(t, back.Runs[0].Stages["ready"].Stale)
	assert.Equal(t, engine.VerdictApprove, back.Runs[0].Stages["ready"].Stale.Verdict)
	assert.True(t, back.Runs[0].Stages["ready"].Stale.At.Equal(at(5)))
}
