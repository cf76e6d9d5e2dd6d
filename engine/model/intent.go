package model

import "time"

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

// WriteAhead reports whether an effect of kind k must be written into the state as an
// intent, and that state saved, before it is performed.
func (k EffectKind) WriteAhead() bool {
	return k == EffectMerge || k == EffectComment || k == EffectCreateIssue
}

// DispatchTrace is what GitHub shows of a dispatch the state holds an intent of, as the
// caller looked it up (Facts.Dispatches).
type DispatchTrace struct {
	// Seen: GitHub shows it performed; RunID is the workflow run it started, if known.
	Seen  bool
	RunID int64
	// Unsure: what GitHub shows cannot tell whether it was performed.
	Unsure bool
	// Why says what was looked at and what it showed, for the log and the status.
	Why string
	// Err says why the look-up failed: nothing is decided on it.
	Err string
}

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

// InFlightUntil is when it stops being in flight: Until, but never later than
// MaxIntentLease after it was asked for.
func (it Intent) InFlightUntil() time.Time {
	return minTime(it.Until, it.At.Add(MaxIntentLease))
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
