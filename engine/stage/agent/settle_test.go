package agent

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettle(t *testing.T) {
	c, run, s := setup(t, "implement")
	Type{}.Step(c, run, s)
	key := c.Emitted[0].Key
	run.Intents = []model.Intent{{Key: key, Stage: s.ID, Attempt: 1}}
	sr := run.Stages[s.ID]

	limit := now.Add(time.Hour)
	assert.Equal(t, stage.Stay(), Settle(c, run, s, model.Outcome{Key: key, Err: "rate limited", RetryAt: limit}))
	assert.Equal(t, model.StageRetrying, sr.Status)
	assert.Empty(t, run.Intents)
	require.Len(t, sr.Deadlines, 1)
	assert.Equal(t, model.Deadline{Kind: model.DeadlineRetry, At: limit}, sr.Deadlines[0])
	assert.Contains(t, sr.Message, "tried 1 time")

	assert.Equal(t, stage.Error("dispatching agent impl: gone"), Settle(c, run, s, model.Outcome{Key: key, Err: "gone", Permanent: true}))

	assert.Equal(t, stage.Stay(), Settle(c, run, s, model.Outcome{Key: key, WorkflowRun: 42}))
	assert.Equal(t, int64(42), sr.AgentRun)
	assert.Contains(t, run.Applied, key)
	assert.Equal(t, model.StageWaiting, sr.Status)
}

func TestDispatchTrace(t *testing.T) {
	c, _, s := setup(t, "implement")
	it := model.Intent{Key: "k", Dispatch: lang.DispatchWorkflow, Target: "impl.yml"}
	tr, _, _ := DispatchTrace(c, s, it)
	assert.Equal(t, TraceUnread, tr, "not looked up")
	c.F.Dispatches = map[string]model.DispatchTrace{"k": {Seen: true, RunID: 9, Why: "run 9"}}
	tr, id, why := DispatchTrace(c, s, it)
	assert.Equal(t, TraceSeen, tr)
	assert.Equal(t, int64(9), id)
	assert.Equal(t, "run 9", why)
	c.F.Dispatches["k"] = model.DispatchTrace{Unsure: true}
	tr, _, _ = DispatchTrace(c, s, it)
	assert.Equal(t, TraceUnsure, tr)
	c.F.Dispatches["k"] = model.DispatchTrace{Err: "502"}
	tr, _, _ = DispatchTrace(c, s, it)
	assert.Equal(t, TraceUnread, tr)

	it = model.Intent{Key: "p#1/judge/1/dispatch"}
	tr, _, _ = DispatchTrace(c, c.P.Stage("judge"), it)
	assert.Equal(t, TraceAbsent, tr, "a comment dispatch without its marker, by the agent's kind")
	c.F.PR.Posted = []string{it.Key}
	tr, _, _ = DispatchTrace(c, c.P.Stage("judge"), it)
	assert.Equal(t, TraceSeen, tr)
	tr, _, _ = DispatchTrace(c, s, model.Intent{Key: "r", Dispatch: lang.DispatchRepositoryDispatch})
	assert.Equal(t, TraceUnsure, tr, "a repository_dispatch leaves nothing to look at")
}
