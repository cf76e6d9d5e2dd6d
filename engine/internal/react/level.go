package react

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Reactions are level-triggered, as triggers and gates are: GitHub may never deliver the
// event of a push (it cancels the pending job of a concurrency group when a newer one
// queues, a job fails on a 5xx), and a run kept at its gate by an approval of an older
// commit would then never go back for the new head. So a reaction keyed per head commit —
// invalidate_and_restart on pull_request.synchronize — acts on any event that finds the pull
// request at a head the run has not reacted to, once, as the push's event would have: its
// key is the same, so the push's event delivered late, or again, does nothing more.
//
// Which heads are pushes to react to: a head the run saw after another since it started
// (Run.HeadSince), never the head it started on — nor, for a sub-pipeline's run, the head
// its parent had when it started it. Only a pull request's own runs react so: an issue's
// and a multi-PR run's pull requests are not the subject the event's facts read.
//
// The reactions keyed per delivery (notify, wake_agent, and invalidate_and_restart on any
// other event) act on the delivered event only: a lost delivery cannot be told from one that
// never happened. wake_agent on a push is keyed per head too, but acts on the event's
// actor (their permission, and never an app's event), whom a lost push does not tell.

// Level applies the reactions of open runs to a push whose event is missing. The kernel
// calls it before commands and gates are evaluated for this event: the push came first, so
// a command applies to the restarted run, and no gate passes on the results it made stale.
func Level(k Kernel, in model.Input) {
	w := k.World()
	for _, run := range w.Runs {
		if p := w.Cfg.PipelineFor(run); p != nil && !run.Status.Final() {
			level(k, p, run, in)
		}
	}
}

// level applies run's reaction to a push whose event is missing, when this event
// (in) finds the pull request at a head the run has not reacted to.
func level(k Kernel, p *lang.Pipeline, run *model.Run, in model.Input) {
	r := p.Reaction(eventPush)
	if r == nil || r.Action != lang.ReactInvalidateAndRestart || in.Event == eventPush {
		return
	}
	w := k.World()
	if w.Issue || p.IsMultiPR() || w.Facts.PR.State != model.PROpen || !pushedSinceStart(w.Facts, run) {
		return
	}
	key, prefix := reactionKey(w, run, r, in, "restart")
	if slices.Contains(run.Applied, key) {
		return
	}
	k.Logf("run %s: the pull request is at %s, whose %s was not seen; reacting to it on %s", run.ID, model.Short(run.Head), eventPush, in.Event)
	restart(k, p, run, r, key, prefix, fmt.Sprintf("%s (head %s, whose event was not seen; on %s)", eventPush, model.Short(run.Head), in.Event))
}

// pushedSinceStart reports whether the head of run's pull request (as facts read it) moved
// since the run started: it saw the current head after another. A sub-pipeline's run is
// started with its parent's head and the time the parent saw it: it counts only a head it
// saw after it started.
func pushedSinceStart(facts *model.Facts, run *model.Run) bool {
	head := facts.PR.HeadSHA
	if head == "" || head != run.Head || run.HeadSince.IsZero() {
		return false
	}
	return run.Parent == "" || run.HeadSince.After(run.StartedAt)
}
