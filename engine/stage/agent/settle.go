package agent

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Settle records o, the outcome of the dispatch of run's attempt of s: performed, the
// stage waits for the report; refused for good, the stage's error; refused for now, it
// is tried again on the next event (or when a rate limit ends).
func Settle(c stage.Context, run *model.Run, s *lang.Stage, o model.Outcome) stage.Decision {
	sr := run.Stages[s.ID]
	run.Intents = model.DropIntent(run.Intents, o.Key)
	if o.Err == "" {
		run.Applied = model.AppendOnce(run.Applied, o.Key)
		sr.Message = ""
		sr.AgentRun = o.WorkflowRun
		c.Logf("run %s: agent %s dispatched for %s (attempt %d)", run.ID, s.Agent, s.ID, sr.Attempt)
		AwaitReport(c, run, s)
		return stage.Stay()
	}
	sr.Tries++
	if o.Permanent {
		return stage.Error(fmt.Sprintf("dispatching agent %s: %s", s.Agent, o.Err))
	}
	sr.Message = fmt.Sprintf("dispatching agent %s: %s; tried %d %s; trying again on the next event", s.Agent, o.Err, sr.Tries, model.Plural(sr.Tries, "time", "times"))
	sr.RetryWhenLimitEnds(o.RetryAt) // the sweep comes back when a rate limit ends
	sr.Status = model.StageRetrying
	run.Status = model.RunWaiting
	c.Logf("run %s: %s", run.ID, sr.Message)
	return stage.Stay()
}
