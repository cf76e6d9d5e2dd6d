package engine

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/lang"
)

// GitHub computes a pull request's mergeability after a push or a base change, and answers
// UNKNOWN until then; it sends no event when it is done. A run whose merge waits on it
// (merge_pr, or an all-or-none multi-PR merge) arms a poll deadline, so the sweep looks again
// without waiting for an unrelated event, and escalates once GitHub has not answered after
// mergeabilityPolls polls.

const (
	mergeabilityInterval = 5 * time.Minute
	mergeabilityPolls    = 12 // an hour at mergeabilityInterval
)

// waitMergeability keeps sr of run waiting for GitHub's mergeability of what: it arms the
// next poll, or escalates when the last one is spent. It reports whether the run escalated.
func (e *eval) waitMergeability(run *model.Run, sr *model.StageRun, what string) bool {
	if why := e.mergeabilityPoll(run, sr, what); why != "" {
		e.escalate(run, why)
		return true
	}
	return false
}

// mergeabilityPoll arms the next poll of GitHub's mergeability of what for sr of run, or
// says why the run escalates when the last one is spent.
func (e *eval) mergeabilityPoll(run *model.Run, sr *model.StageRun, what string) string {
	d, polled := e.MergePolls[run.ID]
	n := 0
	if polled {
		n = d.N + 1
	}
	if n >= mergeabilityPolls {
		return fmt.Sprintf("GitHub has not computed whether %s can be merged after %d checks over %s; "+
			"look at the pull request on GitHub (a merge conflict GitHub cannot compute, or an outage), then /pipeline retry",
			what, n, graph.ShortDuration(mergeabilityInterval*mergeabilityPolls))
	}
	for _, x := range sr.Deadlines {
		if x.Kind == model.DeadlineMergeability {
			return ""
		}
	}
	sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineMergeability, At: e.Now.Add(mergeabilityInterval), N: n})
	return ""
}

// MergeabilityDue records that the poll is due; the stage's evaluation, which knows whether
// it still waits on GitHub, decides what to do (mergeabilityPoll).
func (e *eval) MergeabilityDue(_ *lang.Pipeline, run *model.Run, _ *lang.Stage, d model.Deadline) bool {
	if e.MergePolls == nil {
		e.MergePolls = map[string]model.Deadline{}
	}
	e.MergePolls[run.ID] = d
	return false
}
