package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// kinds are the kinds of run's transitions, in order.
func kinds(run *model.Run) []string {
	out := make([]string, len(run.History))
	for i, t := range run.History {
		out[i] = t.Kind
	}
	return out
}

// An agent error that starts a new attempt is a retry; the one that spends the retries
// is an error; the other transitions carry no kind.
func TestTransitionKindsOfAgentErrors(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	fail := func(attempt int) model.Input {
		return model.Input{Key: "wf", Event: "workflow_run.completed", AgentFailure: ownRun(cfg, f, model.AgentFailure{Run: "loop/7/1", Stage: "implement", Attempt: attempt, Why: "workflow run concluded failure"})}
	}
	res = dispatched(t, cfg, Step(cfg, res.State, fail(1), f, t0.Add(time.Minute)), f, t0)
	res = Step(cfg, res.State, fail(2), f, t0.Add(3*time.Minute))
	run := res.State.Runs[0]
	require.Equal(t, model.RunFailed, run.Status)
	assert.Equal(t, []string{"", model.KindRetry, model.KindError}, kinds(run))
}

// A verdict rule's bounded loop marks each iteration; the verdict past the maximum does not.
func TestTransitionKindsOfLoops(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := atAnalyze(t, cfg, f)
	for i := 1; i <= 2; i++ {
		res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", i, lang.VerdictFollowup, nil), f, t0)
		res = dispatched(t, cfg, res, f, t0)
		res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", i+1, lang.VerdictComplete, nil), f, t0)
		res = dispatched(t, cfg, res, f, t0)
	}
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 3, lang.VerdictFollowup, nil), f, t0)
	run := res.State.Runs[0]
	require.Equal(t, model.RunFailed, run.Status)
	assert.Equal(t, []string{"", "", model.KindLoop, "", model.KindLoop, "", ""}, kinds(run))
}
