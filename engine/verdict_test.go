package engine

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// A branch's verdict goes to the join, whatever rules the verdict has: a verdict with no
// rule fails the branch, not the run, and the branch says what the agent reported.
func TestBranchVerdictGoesToTheJoin(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAny, "sec", "perf")
	f := prFacts()
	res := atReview(t, cfg, f)
	res = dispatched(t, cfg, res, f, t0.Add(2*time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictFollowup, nil), f, t0.Add(3*time.Minute))
	run := res.State.Runs[0]
	require.Equal(t, model.RunWaiting, run.Status, "the join waits for perf")
	assert.Equal(t, "review", run.Stage)
	assert.Equal(t, model.StageFailed, run.Stages["sec-review"].Status)
	assert.Equal(t, "agent sec reported followup (attempt 1)", run.Stages["sec-review"].Message)
}
