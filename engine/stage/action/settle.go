package action

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Settled decides of o, the outcome of the effect s asked for: done, on to its on_success;
// refused for a setting only a person can change, escalated once; refused for good, the
// stage fails; else it is tried again on the next event (or when a rate limit ends).
func (Type) Settled(c stage.Context, run *model.Run, s *lang.Stage, o model.Outcome) stage.Decision {
	sr := run.Stages[s.ID]
	if dec, ok := settledQueue(c, run, s, o); ok {
		return dec
	}
	if o.Err == "" {
		sr.Message = ""
		return stage.Leave(model.StageSucceeded, s.OnSuccess, c.DoneWhy(s))
	}
	sr.Tries++
	sr.Message = fmt.Sprintf("%s; tried %d %s", o.Err, sr.Tries, model.Plural(sr.Tries, "time", "times"))
	switch {
	case o.Escalate:
		// The same merge would be refused on every event: /pipeline retry tries it again
		// once the setting or the config is fixed.
		sr.Status, sr.Message = model.StageFailed, o.Err
		return stage.Escalate(o.Err)
	case o.Permanent:
		return stage.Fail(o.Err)
	}
	if o.RetryAt.IsZero() {
		sr.Message += "; trying again on the next event"
	} else { // a rate limit: the sweep comes back when it ends, should no event come first
		sr.Message += "; trying again on the next event, or at " + o.RetryAt.UTC().Format(time.RFC3339) + " when GitHub's rate limit ends"
		sr.RetryWhenLimitEnds(o.RetryAt)
	}
	sr.Status = model.StageRetrying
	run.Status = model.RunWaiting
	c.Logf("run %s: %s %s", run.ID, s.Action, sr.Message)
	return stage.Stay()
}
