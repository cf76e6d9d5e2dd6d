package model

import "time"

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
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

// DeadlineMergeability is the next look at a mergeability GitHub has not computed.
const DeadlineMergeability = "mergeability"

// DeadlineFollow is when a multi-PR run waiting on the facts of a pull request of another
// repository reads them again: events there do not reach this repository's workflow, so
// the sweep comes back for the run every FollowInterval (an event on the issue moves it
// sooner).
const DeadlineFollow = "follow_prs"

// DeadlineBranch is the timeout of one branch of a parallel stage, kept with the stage's
// own deadlines (Deadline.Branch names the branch).
const DeadlineBranch = "branch"

// RetryWhenLimitEnds makes sr, whose effect a rate limit refused until at, wait for at:
// the evaluation then (the sweep's, when no event comes first) tries the effect again. A
// zero at arms nothing.
func (sr *StageRun) RetryWhenLimitEnds(at time.Time) {
	if at.IsZero() {
		return
	}
	sr.DropDeadlines(DeadlineRetry)
	sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineRetry, At: at})
}

// DropDeadlines drops sr's deadlines of that kind; none left is nil.
func (sr *StageRun) DropDeadlines(kind string) {
	var kept []Deadline
	for _, d := range sr.Deadlines {
		if d.Kind != kind {
			kept = append(kept, d)
		}
	}
	sr.Deadlines = kept
}
