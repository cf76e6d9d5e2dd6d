package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A finished run that left State.Runs for State.Past still keeps its pipeline from
// starting again for the same trigger (the same delivery, or a label that was not added
// anew), and the next run's number follows the highest so far — and the seconds since
// the pull request was created, in minutes.
func TestStepPastRunsCount(t *testing.T) {
	cfg := holdConfig()
	f := prFacts("security", "ok")
	f.PR.CreatedAt = t0
	f.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "security", At: t0.Add(time.Minute)}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.labeled"}, f, t0.Add(time.Minute))
	require.Len(t, res.State.Runs, 1)
	run := res.State.Runs[0]
	require.Equal(t, model.RunCompleted, run.Status)
	assert.Equal(t, "security-hold/7/2", run.ID, "a minute after the pull request was opened")

	// The store moves the finished run out of Runs.
	st := res.State
	st.Past = []model.PastRun{run.Past()}
	st.Runs = nil

	// The same delivery again, and a later event while the label still holds: nothing starts.
	for _, key := range []string{"k1", "k2"} {
		again := Step(cfg, st, model.Input{Key: key, Event: "pull_request.labeled"}, f, t0.Add(2*time.Minute))
		assert.Empty(t, again.State.Runs, key)
		assert.False(t, again.Changed, key)
	}

	// A happening trigger (any label) is kept from restarting by its delivery key alone.
	anyLabel := holdConfig()
	anyLabel.Pipelines[0].Trigger.Labels = nil
	again := Step(anyLabel, st, model.Input{Key: "k1", Event: "pull_request.labeled"}, f, t0.Add(2*time.Minute))
	assert.Empty(t, again.State.Runs)

	// The label added anew: a new run, numbered after the archived one.
	f.PR.Timeline = append(f.PR.Timeline, model.TimelineEvent{Kind: model.TimelineUnlabeled, Label: "security", At: t0.Add(3 * time.Minute)},
		model.TimelineEvent{Kind: model.TimelineLabeled, Label: "security", At: t0.Add(4 * time.Minute)})
	res = Step(cfg, st, model.Input{Key: "k3", Event: "pull_request.labeled"}, f, t0.Add(4*time.Minute))
	require.Len(t, res.State.Runs, 1)
	assert.Equal(t, "security-hold/7/5", res.State.Runs[0].ID, "four minutes after")
}

func TestRunNumber(t *testing.T) {
	assert.Equal(t, 3, model.RunNumber("p/7/3"))
	assert.Equal(t, 12, model.RunNumber("a/b/7/12"))
	assert.Equal(t, 0, model.RunNumber("p/7/x"))
	assert.Equal(t, 0, model.RunNumber(""))
}
