package core

import (
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Deadline kinds.
const (
	DeadlineTimeout  = "timeout"  // the stage's `timeout` (on_timeout applies)
	DeadlineDelay    = "delay"    // a delay stage's `duration` ends
	DeadlinePoll     = "poll"     // a delay stage's next `poll` check
	DeadlineReminder = "reminder" // a human stage's next reminder
	DeadlineRetry    = "retry"    // a rate limit that refused the stage's effect ends: it is tried again
)

// Deadline is one absolute time the current stage of a run waits for.
type Deadline struct {
	Kind string    `json:"kind"`
	At   time.Time `json:"at"`
	// N counts the deadlines of this kind acted on before it in this stage entry: the
	// extensions of a timeout, the polls, the reminders sent.
	N int `json:"n,omitempty"`
	// Branch is the branch of a parallel stage a DeadlineBranch is the timeout of.
	Branch string `json:"branch,omitempty"`
}

// NextDeadline is the earliest deadline of the run's current stage, or the end of the lease
// of an intent it holds (an effect whose outcome stayed unknown: once the invocation that
// asked for it has surely ended, the sweep lets the run ask again, whether or not another
// event comes); zero when the run is final or escalated, or waits for no time.
func (r *Run) NextDeadline() time.Time {
	if r.Status.Final() || r.Status == RunEscalated {
		return time.Time{}
	}
	var next time.Time
	earliest := func(at time.Time) {
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	for _, it := range r.Intents {
		earliest(it.InFlightUntil())
	}
	if sr := r.Stages[r.Stage]; sr != nil {
		for _, d := range sr.Deadlines {
			earliest(d.At)
		}
	}
	return next
}

// NextDeadline is the earliest deadline of the state's runs; zero when none has one.
func (st *State) NextDeadline() time.Time {
	var next time.Time
	for _, r := range st.Runs {
		if at := r.NextDeadline(); !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return next
}

func ArmTimeout(stage *lang.Stage, sr *StageRun, now time.Time) {
	if stage.Timeout > 0 {
		sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineTimeout, At: now.Add(stage.Timeout)})
	}
}

// DropDeadlines forgets the deadlines of a run that can no longer act on them (its
// pipeline left the config), so that the sweep does not come back for it every time.
func (e *Eval) DropDeadlines(run *Run) {
	if sr := run.Stages[run.Stage]; sr != nil && len(sr.Deadlines) > 0 {
		sr.Deadlines = nil
		e.Logf("run %s: its deadlines are dropped: nothing can act on them without its pipeline", run.ID)
	}
}

// RetryWhenLimitEnds makes sr, whose effect a rate limit refused until at, wait for at:
// the evaluation then (the sweep's, when no event comes first) tries the effect again.
func RetryWhenLimitEnds(sr *StageRun, at time.Time) {
	if !at.IsZero() {
		sr.Deadlines = append(dropKind(sr.Deadlines, DeadlineRetry), Deadline{Kind: DeadlineRetry, At: at})
	}
}

// dropBranchDeadline drops the deadline of branch from ds.
func dropBranchDeadline(ds []Deadline, branch string) []Deadline {
	var out []Deadline
	for _, d := range ds {
		if d.Kind != DeadlineBranch || d.Branch != branch {
			out = append(out, d)
		}
	}
	return out
}

// dropKind drops the deadlines of that kind from ds.
func dropKind(ds []Deadline, kind string) []Deadline {
	var out []Deadline
	for _, d := range ds {
		if d.Kind != kind {
			out = append(out, d)
		}
	}
	return out
}
