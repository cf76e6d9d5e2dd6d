package action

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// GitHub's merge queue. When the base takes pull requests through its queue only, the
// merge is asked of the queue (the pull request is enqueued at the head the gates hold on)
// and the stage waits in it, saying its position; it completes when GitHub merges the
// pull request. While it waits, the merge guard is asked again on every event: a gate that
// no longer holds takes the pull request out of the queue (the queue would merge it
// otherwise) and the run goes back. The queue taking it out by itself — a check failed on
// its merge group — fails the stage (on_failure, else the run fails); a push takes it out
// too, and the new head goes through the gates again. A pull request a person put in the
// queue is left to the queue.

// dequeueKind ends the key of the effect that takes a pull request out of the queue.
const dequeueKind = "/" + string(model.EffectDequeue)

// inQueue decides of run's merge stage s while the pull request is in the merge queue, or
// was put there by this attempt; waits is false when the merge goes on as usual.
func inQueue(c stage.Context, run *model.Run, s *lang.Stage) (dec stage.Decision, waits bool) {
	pr, sr := c.Facts().PR, run.Stages[s.ID]
	if pr.InMergeQueue && sr.Queued == "" && (sr.Status == model.StageActing || sr.Status == model.StageRetrying) {
		// This attempt asked for the merge, whose outcome was not known: the queue took it.
		sr.Queued = pr.HeadSHA
	}
	switch {
	case pr.InMergeQueue && sr.Queued == "":
		return stage.Hold("in the merge queue"+position(pr)+", put there by a person", "GitHub's merge queue"), true
	case pr.InMergeQueue:
		switch why, back := c.GuardMerge(s); {
		case back:
			dequeue(c, run, s, "the gates no longer hold")
			return stage.Back(), true
		case why != "":
			dequeue(c, run, s, why)
			return stage.Hold(why, "a maintainer (fix the pipeline)"), true
		}
		run.Status = model.RunWaiting
		return stage.Hold("in the merge queue"+position(pr)+": GitHub merges it when the queue's checks pass on its merge group",
			"GitHub's merge queue"), true
	case sr.Queued != "":
		head := sr.Queued
		sr.Queued = ""
		if head == pr.HeadSHA {
			return fail(run, s, "GitHub's merge queue took the pull request out without merging it (a required check failed on its merge group, or someone dequeued it)"), true
		}
		c.Logf("run %s: %s: the merge queue let go of %s, the head moved to %s; the merge goes through the gates again", run.ID, s.ID, model.Short(head), model.Short(pr.HeadSHA))
	}
	return stage.Stay(), false
}

// dequeue asks for the pull request to leave the merge queue, which this attempt of s put it in.
func dequeue(c stage.Context, run *model.Run, s *lang.Stage, why string) {
	sr := run.Stages[s.ID]
	sr.Queued = ""
	c.Logf("run %s: %s: taking the pull request out of the merge queue: %s", run.ID, s.ID, why)
	c.Emit(model.Effect{Key: fmt.Sprintf("%s/%s/%d%s", run.ID, s.ID, sr.Attempt, dequeueKind), Run: run.ID, Stage: s.ID,
		Kind: model.EffectDequeue, Number: c.Facts().PR.Number})
}

// settledQueue decides of o when it is the merge queue's: the merge was enqueued instead
// (the stage waits in the queue), or a dequeue's outcome (logged). ok is false for any
// other outcome.
func settledQueue(c stage.Context, run *model.Run, s *lang.Stage, o model.Outcome) (dec stage.Decision, ok bool) {
	sr := run.Stages[s.ID]
	switch {
	case strings.HasSuffix(o.Key, dequeueKind):
		if o.Err != "" {
			c.Logf("run %s: %s: the pull request was not taken out of the merge queue: %s", run.ID, s.ID, o.Err)
		}
		return stage.Stay(), true
	case o.Err == "" && o.Queued:
		sr.Queued, sr.Message, sr.Status = c.Facts().PR.HeadSHA, "", model.StageWaiting
		run.Status = model.RunWaiting
		c.Logf("run %s: %s: the base requires the merge queue; the pull request is in it at %s", run.ID, s.ID, model.Short(sr.Queued))
		return stage.Stay(), true
	}
	return stage.Stay(), false
}

// Abandoned is the effect that takes the pull request out of the merge queue when run, which
// put it there at its merge stage s, ends without the merge (cancelled, failed); nil when
// there is none to take out.
func Abandoned(run *model.Run, s *lang.Stage, pr *model.PullRequest) *model.Effect {
	sr := run.Stages[s.ID]
	if s.Type != lang.StageAction || s.Action != lang.ActionMergePR || sr == nil || sr.Queued == "" || pr == nil || !pr.InMergeQueue {
		return nil
	}
	sr.Queued = ""
	return &model.Effect{Key: fmt.Sprintf("%s/%s/%d%s", run.ID, s.ID, sr.Attempt, dequeueKind), Run: run.ID, Stage: s.ID,
		Kind: model.EffectDequeue, Number: pr.Number}
}

// position says where pr stands in the merge queue, when the facts tell it.
func position(pr *model.PullRequest) string {
	if pr.QueuePosition == 0 {
		return ""
	}
	return fmt.Sprintf(" (position %d)", pr.QueuePosition)
}
