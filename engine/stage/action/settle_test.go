package action

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func settled(t *testing.T, o model.Outcome) (*stagetest.Context, *model.Run, stage.Decision) {
	t.Helper()
	c, run, _ := at(t, "merge")
	p := c.P
	return c, run, Type{}.Settled(c, run, p.Stage("merge"), o)
}

func TestADoneEffectMovesOn(t *testing.T) {
	_, run, d := settled(t, model.Outcome{Key: "k"})
	assert.Equal(t, stage.Leave(model.StageSucceeded, "strict", "done: merge_pr"), d)
	assert.Empty(t, run.Stages["merge"].Message)
}

func TestARefusalOnlyAPersonCanLiftEscalatesOnce(t *testing.T) {
	_, run, d := settled(t, model.Outcome{Key: "k", Err: "branch protection requires a review", Escalate: true})
	assert.Equal(t, stage.Escalate("branch protection requires a review"), d)
	assert.Equal(t, model.StageFailed, run.Stages["merge"].Status)
	assert.Equal(t, "branch protection requires a review", run.Stages["merge"].Message)
}

func TestAPermanentRefusalFailsTheStageShowingItsTries(t *testing.T) {
	_, run, d := settled(t, model.Outcome{Key: "k", Err: "405 not mergeable", Permanent: true})
	assert.Equal(t, stage.Fail("405 not mergeable"), d)
	assert.Equal(t, "405 not mergeable; tried 1 time", run.Stages["merge"].Message)
}

func TestAPassingRefusalIsTriedAgainWhenTheRateLimitEnds(t *testing.T) {
	end := now.Add(10 * time.Minute)
	c, run, d := settled(t, model.Outcome{Key: "k", Err: "rate limited", RetryAt: end})
	assert.Equal(t, stage.Stay(), d)
	sr := run.Stages["merge"]
	assert.Equal(t, model.StageRetrying, sr.Status)
	assert.Equal(t, model.RunWaiting, run.Status)
	require.Len(t, sr.Deadlines, 1)
	assert.Equal(t, model.Deadline{Kind: model.DeadlineRetry, At: end}, sr.Deadlines[0])
	assert.Contains(t, sr.Message, "rate limited; tried 1 time; trying again on the next event, or at ")
	assert.Len(t, c.Log, 1)
}
