package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An all-or-none merge whose pull request GitHub has not computed yet waits with a poll the
// sweep keeps, instead of waiting for an unrelated event; and escalates when the polls run out.
func TestMultiPRMergeWaitsOnMergeabilityThroughTheSweep(t *testing.T) {
	cfg := multiConfig()
	api, web := apiPR(), webPR()
	res := startMulti(t, cfg, multiFacts(web, api))
	api.Labels, web.Labels = []string{"ok"}, []string{"ok"}
	web.Mergeable = model.Unknown
	res = Step(cfg, res.State, model.Input{Key: "k5", Event: "pull_request.labeled"}, multiFacts(web, api), t0)
	run := res.State.Runs[0]
	require.Equal(t, "merge-all", run.Stage)
	assert.Empty(t, res.Effects, "neither is merged while one cannot be known")
	assert.Equal(t, model.RunWaiting, run.Status)
	var polls int
	for _, d := range run.Stages["merge-all"].Deadlines {
		if d.Kind == model.DeadlineMergeability {
			polls++
			assert.Equal(t, t0.Add(mergeabilityInterval), d.At)
		}
	}
	assert.Equal(t, 1, polls)

	// The sweep, once due, with GitHub done: both merges are asked for.
	web.Mergeable = model.Mergeable
	swept := Step(cfg, res.State, model.Input{Key: "sweep", Event: "schedule"}, multiFacts(web, api), t0.Add(mergeabilityInterval))
	assert.Len(t, swept.Effects, 2)

	// Never computed: the run escalates after the last poll, saying so.
	web.Mergeable = model.Unknown
	now := t0
	for i := 0; i < mergeabilityPolls && res.State.Runs[0].Status == model.RunWaiting; i++ {
		now = now.Add(mergeabilityInterval)
		res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "schedule"}, multiFacts(web, api), now)
		assert.Empty(t, res.Effects)
	}
	run = res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Message, `GitHub has not computed whether every pull request of stage "merge-all" can be merged`)
}
