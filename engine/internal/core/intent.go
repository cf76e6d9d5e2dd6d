package core

import (
	"slices"
	"time"
)

// Intent is an effect asked for whose outcome is not recorded yet.
type Intent struct {
	Key     string     `json:"key"` // the effect's key
	Kind    EffectKind `json:"kind"`
	Stage   string     `json:"stage"`
	Attempt int        `json:"attempt"`       // the stage's attempt it belongs to
	SHA     string     `json:"sha,omitempty"` // the head when it was asked for (merge_pr merges exactly it)
	// Try is 1 when the effect is first asked for, and one more each time it is asked for
	// again because the outcome of the previous request stayed unknown.
	Try int       `json:"try"`
	At  time.Time `json:"at"` // when it was asked for
	// Until is when the invocation that asked for it has certainly stopped (its deadline
	// and IntentGrace). Before then, the effect may still be being performed.
	Until time.Time `json:"until"`
	// Dispatch and Target say, for an agent's dispatch, what to look for when its outcome
	// is unknown: its kind, and the workflow file, label or assignee it names.
	Dispatch string `json:"dispatch,omitempty"`
	Target   string `json:"target,omitempty"`
}

// WriteAhead reports whether an effect of kind k must be written into the state as an
// intent, and that state saved, before it is performed.
func (k EffectKind) WriteAhead() bool {
	return k == EffectMerge || k == EffectComment || k == EffectCreateIssue
}

// IntentGrace is how long after an invocation's deadline a request it sent may still
// take effect on GitHub (the request was on its way when the deadline cut it off).
const IntentGrace = time.Minute

// DefaultIntentLease is how long an intent stays in flight when the input gives no
// deadline for the invocation.
const DefaultIntentLease = 10 * time.Minute

// MaxIntentLease bounds how long any intent stays in flight, whatever deadline it was
// written with: the longest a GitHub-hosted job may run. An intent that claims more (a
// state written with a wrong clock) holds its run no longer than that.
const MaxIntentLease = 6 * time.Hour

// until is when an intent written in this evaluation stops being in flight.
func (e *Eval) until() time.Time {
	if !e.Intents.Deadline.IsZero() && e.Intents.Deadline.After(e.Now) {
		return minTime(e.Intents.Deadline.Add(IntentGrace), e.Now.Add(MaxIntentLease))
	}
	return e.Now.Add(DefaultIntentLease + IntentGrace)
}

// InFlightUntil is when it stops being in flight: Until, but never later than
// MaxIntentLease after it was asked for.
func (it Intent) InFlightUntil() time.Time {
	return minTime(it.Until, it.At.Add(MaxIntentLease))
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// Intend records the intent of write-ahead effect eff of run's current stage, replacing
// an earlier intent of the same key whose outcome stayed unknown, and marks eff.
func (e *Eval) Intend(run *Run, sr *StageRun, eff *Effect) {
	try := 1
	if old, ok := e.Intents.Unknown[eff.Key]; ok {
		try = old.Try + 1
	}
	it := Intent{Key: eff.Key, Kind: eff.Kind, Stage: eff.Stage, Attempt: sr.Attempt, SHA: e.Facts.PR.HeadSHA,
		Try: try, At: e.Now, Until: e.until()}
	if eff.Kind == EffectDispatch {
		it.Dispatch, it.Target = eff.Dispatch, dispatchTarget(*eff)
	}
	run.Intents = append(DropIntent(run.Intents, eff.Key), it)
	eff.WriteAhead = true
	if try > 1 {
		e.Logf("run %s: %s asked for again (request %d): the outcome of the request of %s is unknown, and the invocation that made it has ended",
			run.ID, eff.Key, try, e.Intents.Unknown[eff.Key].At.UTC().Format(time.RFC3339))
	}
}

// outcome returns the outcome of the effect of key that the input carries, if any. An
// outcome that does not tell whether the effect was performed (Unknown) is none.
func (e *Eval) Outcome(key string) (Outcome, bool) {
	for _, o := range e.Intents.Outcomes {
		if o.Key == key && !o.Unknown {
			return o, true
		}
	}
	return Outcome{}, false
}

// Performed says how the facts show that the effect of it was performed, or "".
func (e *Eval) Performed(it Intent) string {
	pr := e.Facts.PR
	switch it.Kind {
	case EffectMerge:
		if pr.State == PRMerged {
			return "the pull request is merged"
		}
	case EffectComment, EffectDispatch:
		if slices.Contains(pr.Posted, it.Key) {
			return "the comment carrying its marker exists"
		}
		if tr, ok := e.Facts.Dispatches[it.Key]; ok && tr.Seen {
			return tr.Why
		}
	}
	return ""
}

// InFlight keeps a run whose intent may still be being performed where it is: nothing
// is asked for again until its outcome is recorded or the invocation has surely ended.
func (e *Eval) InFlight(run *Run, it Intent) {
	sr := run.Stages[it.Stage]
	if sr.Status != StageRetrying {
		sr.Status = StageActing
	}
	run.Status = RunRunning
	e.Logf("run %s: %s asked for at %s is in flight; not asked for again before its outcome is known or %s",
		run.ID, it.Key, it.At.UTC().Format(time.RFC3339), it.InFlightUntil().UTC().Format(time.RFC3339))
}

// OpenIntent returns the intent of run still in flight, if any.
func OpenIntent(run *Run) (Intent, bool) {
	if len(run.Intents) == 0 {
		return Intent{}, false
	}
	return run.Intents[0], true
}

func DropIntent(list []Intent, key string) []Intent {
	out := list[:0:0]
	for _, it := range list {
		if it.Key != key {
			out = append(out, it)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// HasWriteAhead reports whether any of effects must be saved as an intent before it is
// performed (see Effect.WriteAhead).
func HasWriteAhead(effects []Effect) bool {
	for _, e := range effects {
		if e.WriteAhead {
			return true
		}
	}
	return false
}
