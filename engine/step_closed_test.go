package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pull request closed or merged while its closed event was lost ends its runs at the
// next event: cancelled when closed, completed when merged outside the run; a run of a
// pipeline that starts on the closed event is left alone.
func TestClosedSubjectEndsItsRuns(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Equal(t, model.RunWaiting, res.State.Runs[0].Status)

	closed := prFacts()
	closed.PR.State = model.PRClosed
	next := Step(cfg, res.State, model.Input{Key: "k2", Event: "check_suite.completed"}, closed, t0)
	assert.Equal(t, model.RunCancelled, next.State.Runs[0].Status)
	assert.Equal(t, "the pull request was closed", next.State.Runs[0].Message)

	merged := prFacts()
	merged.PR.State, merged.PR.MergedBy = model.PRMerged, "alice"
	next = Step(cfg, res.State, model.Input{Key: "k2", Event: "check_suite.completed"}, merged, t0)
	run := next.State.Runs[0]
	assert.Equal(t, model.RunCompleted, run.Status)
	assert.Contains(t, run.History[len(run.History)-1].Why, "merged by alice, outside this run")

	cfg.Pipelines[0].Trigger.Event = "pull_request.closed"
	next = Step(cfg, res.State, model.Input{Key: "k4", Event: "pull_request.labeled"}, closed, t0)
	assert.False(t, next.State.Runs[0].Status.Final(), "a pipeline of closed pull requests runs on one")
}
