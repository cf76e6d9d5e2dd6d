package model

import "time"

// RetryWhenLimitEnds makes sr, whose effect a rate limit refused until at, wait for at:
// the evaluation then (the sweep's, when no event comes first) tries the effect again. A
// zero at arms nothing.
func (sr *StageRun) RetryWhenLimitEnds(at time.Time) {
	if at.IsZero() {
		return
	}
	kept := sr.Deadlines[:0:0]
	for _, d := range sr.Deadlines {
		if d.Kind != DeadlineRetry {
			kept = append(kept, d)
		}
	}
	sr.Deadlines = append(kept, Deadline{Kind: DeadlineRetry, At: at})
}
