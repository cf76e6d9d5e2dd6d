// Package delay is the delay stage: it waits for its duration, polling its condition on
// the way when it has one, and ends early when the condition holds.
package delay

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Type is the delay stage.
type Type struct{ stage.Nobody }

// Arm arms the delay's end and its first poll.
func (Type) Arm(s *lang.Stage, sr *model.StageRun, now time.Time) {
	end := now.Add(s.Duration)
	sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineDelay, At: end})
	if p := s.Poll; p != nil && p.Interval > 0 && now.Add(p.Interval).Before(end) {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlinePoll, At: now.Add(p.Interval)})
	}
}

// Step keeps the run waiting until one of its deadlines moves it.
func (Type) Step(_ stage.Context, run *model.Run, s *lang.Stage) stage.Decision {
	run.Stages[s.ID].Status = model.StageWaiting
	run.Status = model.RunWaiting
	return stage.Stay()
}

// Deadline ends the delay at its end, or early at a poll whose condition holds.
func (Type) Deadline(c stage.Context, run *model.Run, s *lang.Stage, d model.Deadline) (stage.Decision, bool) {
	switch d.Kind {
	case model.DeadlineDelay:
		return stage.Leave(model.StagePassed, stage.NextOf(c.Pipeline(), s, s.OnComplete), fmt.Sprintf("waited %s", graph.ShortDuration(s.Duration))), true
	case model.DeadlinePoll:
		return poll(c, run, s, d), true
	}
	return stage.Stay(), false
}

// poll checks the delay's poll condition: when it holds, the delay ends early (or goes to
// on_ready's stage); otherwise the next check is one interval on, before the end.
func poll(c stage.Context, run *model.Run, s *lang.Stage, d model.Deadline) stage.Decision {
	sr := run.Stages[s.ID]
	poll := s.Poll
	if poll == nil || poll.Condition == nil || poll.Interval <= 0 {
		return stage.Stay()
	}
	ok, err := poll.Condition.Bool(c.Env())
	if err != nil {
		c.Logf("run %s: the poll condition of stage %q at %s: %v; checked again at the next interval", run.ID, s.ID, poll.Pos, err)
	}
	if ok {
		if poll.OnReady == lang.PollSkipRemaining || poll.OnReady == "" {
			return stage.Leave(model.StagePassed, stage.NextOf(c.Pipeline(), s, s.OnComplete), "the poll condition holds; the rest of the delay is skipped")
		}
		return stage.Leave(model.StagePassed, poll.OnReady, "the poll condition holds")
	}
	end := time.Time{}
	for _, x := range sr.Deadlines {
		if x.Kind == model.DeadlineDelay {
			end = x.At
		}
	}
	next := d.At.Add(poll.Interval)
	for !next.After(c.Now()) {
		next = next.Add(poll.Interval)
	}
	if end.IsZero() || next.Before(end) {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlinePoll, At: next, N: d.N + 1})
	}
	return stage.Stay()
}
