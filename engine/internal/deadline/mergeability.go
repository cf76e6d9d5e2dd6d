package deadline

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// GitHub computes a pull request's mergeability after a push or a base change, and answers
// UNKNOWN until then; it sends no event when it is done. A run whose merge waits on it
// (merge_pr, or an all-or-none multi-PR merge) arms a poll deadline, so the sweep looks again
// without waiting for an unrelated event, and escalates once GitHub has not answered after
// MergeabilityPolls polls.

const (
	MergeabilityInterval = 5 * time.Minute
	MergeabilityPolls    = 12 // an hour at MergeabilityInterval
)

// Poll arms the next poll of GitHub's mergeability of what for sr of run, or says why the
// run escalates when the last one is spent.
func (t *Table) Poll(now time.Time, run *model.Run, sr *model.StageRun, what string) string {
	d, polled := t.polls[run.ID]
	n := 0
	if polled {
		n = d.N + 1
	}
	if n >= MergeabilityPolls {
		return fmt.Sprintf("GitHub has not computed whether %s can be merged after %d checks over %s; "+
			"look at the pull request on GitHub (a merge conflict GitHub cannot compute, or an outage), then /pipeline retry",
			what, n, graph.ShortDuration(MergeabilityInterval*MergeabilityPolls))
	}
	for _, x := range sr.Deadlines {
		if x.Kind == model.DeadlineMergeability {
			return ""
		}
	}
	sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineMergeability, At: now.Add(MergeabilityInterval), N: n})
	return ""
}

// mergeabilityDue records that the poll is due; the stage's evaluation, which knows
// whether it still waits on GitHub, decides what to do (Poll).
func (t *Table) mergeabilityDue(_ Kernel, run *model.Run, _ *lang.Stage, d model.Deadline) bool {
	if t.polls == nil {
		t.polls = map[string]model.Deadline{}
	}
	t.polls[run.ID] = d
	return false
}
