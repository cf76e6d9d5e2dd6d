package engine

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// GitHub computes a pull request's mergeability after a push or a base change, and answers
// UNKNOWN until then; it sends no event when it is done. A run whose merge waits on it
// (merge_pr, or an all-or-none multi-PR merge) arms a poll deadline, so the sweep looks again
// without waiting for an unrelated event, and escalates once GitHub has not answered after
// mergeabilityPolls polls.

// DeadlineMergeability is the next look at a mergeability GitHub has not computed.
const DeadlineMergeability = "mergeability"

const (
	mergeabilityInterval = 5 * time.Minute
	mergeabilityPolls    = 12 // an hour at mergeabilityInterval
)

func init() { deadlineHandlers[DeadlineMergeability] = (*eval).mergeabilityDue }

// mergeabilityDue records that the poll is due; the stage's evaluation, which knows whether
// it still waits on GitHub, decides what to do (waitMergeability).
func (e *eval) mergeabilityDue(_ *lang.Pipeline, run *Run, _ *lang.Stage, d Deadline) bool {
	if e.mergePolls == nil {
		e.mergePolls = map[string]Deadline{}
	}
	e.mergePolls[run.ID] = d
	return false
}

// waitMergeability keeps sr of run waiting for GitHub's mergeability of what: it arms the
// next poll, or escalates when the last one is spent. It reports whether the run escalated.
func (e *eval) waitMergeability(run *Run, sr *StageRun, what string) bool {
	d, polled := e.mergePolls[run.ID]
	n := 0
	if polled {
		n = d.N + 1
	}
	if n >= mergeabilityPolls {
		e.escalate(run, fmt.Sprintf("GitHub has not computed whether %s can be merged after %d checks over %s; "+
			"look at the pull request on GitHub (a merge conflict GitHub cannot compute, or an outage), then /pipeline retry",
			what, n, shortDuration(mergeabilityInterval*mergeabilityPolls)))
		return true
	}
	for _, x := range sr.Deadlines {
		if x.Kind == DeadlineMergeability {
			return false
		}
	}
	sr.Deadlines = append(sr.Deadlines, Deadline{Kind: DeadlineMergeability, At: e.now.Add(mergeabilityInterval), N: n})
	return false
}

// mergeabilityKnown drops sr's mergeability poll: GitHub has answered.
func mergeabilityKnown(sr *StageRun) {
	kept := sr.Deadlines[:0]
	for _, d := range sr.Deadlines {
		if d.Kind != DeadlineMergeability {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		kept = nil
	}
	sr.Deadlines = kept
}
