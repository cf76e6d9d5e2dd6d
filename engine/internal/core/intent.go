package core

import (
	"slices"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// until is when an intent written in this evaluation stops being in flight.
func (e *Eval) until() time.Time {
	if !e.Intents.Deadline.IsZero() && e.Intents.Deadline.After(e.Now) {
		return minTime(e.Intents.Deadline.Add(model.IntentGrace), e.Now.Add(model.MaxIntentLease))
	}
	return e.Now.Add(model.DefaultIntentLease + model.IntentGrace)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// Intend records the intent of write-ahead effect eff of run's current stage, replacing
// an earlier intent of the same key whose outcome stayed unknown, and marks eff.
func (e *Eval) Intend(run *model.Run, sr *model.StageRun, eff *model.Effect) {
	try := 1
	if old, ok := e.Intents.Unknown[eff.Key]; ok {
		try = old.Try + 1
	}
	it := model.Intent{Key: eff.Key, Kind: eff.Kind, Stage: eff.Stage, Attempt: sr.Attempt, SHA: e.Facts.PR.HeadSHA,
		Try: try, At: e.Now, Until: e.until()}
	if eff.Kind == model.EffectDispatch {
		it.Dispatch, it.Target = eff.Dispatch, dispatchTarget(*eff)
	}
	run.Intents = append(model.DropIntent(run.Intents, eff.Key), it)
	eff.WriteAhead = true
	if try > 1 {
		e.Logf("run %s: %s asked for again (request %d): the outcome of the request of %s is unknown, and the invocation that made it has ended",
			run.ID, eff.Key, try, e.Intents.Unknown[eff.Key].At.UTC().Format(time.RFC3339))
	}
}

// outcome returns the outcome of the effect of key that the input carries, if any. An
// outcome that does not tell whether the effect was performed (Unknown) is none.
func (e *Eval) Outcome(key string) (model.Outcome, bool) {
	for _, o := range e.Intents.Outcomes {
		if o.Key == key && !o.Unknown {
			return o, true
		}
	}
	return model.Outcome{}, false
}

// Performed says how the facts show that the effect of it was performed, or "".
func (e *Eval) Performed(it model.Intent) string {
	pr := e.Facts.PR
	switch it.Kind {
	case model.EffectMerge:
		if pr.State == model.PRMerged {
			return "the pull request is merged"
		}
	case model.EffectComment, model.EffectDispatch:
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
func (e *Eval) InFlight(run *model.Run, it model.Intent) {
	sr := run.Stages[it.Stage]
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	e.Logf("run %s: %s asked for at %s is in flight; not asked for again before its outcome is known or %s",
		run.ID, it.Key, it.At.UTC().Format(time.RFC3339), it.InFlightUntil().UTC().Format(time.RFC3339))
}

// OpenIntent returns the intent of run still in flight, if any.
func OpenIntent(run *model.Run) (model.Intent, bool) {
	if len(run.Intents) == 0 {
		return model.Intent{}, false
	}
	return run.Intents[0], true
}

// dispatchTarget is what a dispatch effect names that a look-up finds it by: its workflow
// file, its label or its assignee.
func dispatchTarget(eff model.Effect) string {
	switch {
	case eff.Dispatch == lang.DispatchWorkflow:
		return eff.Workflow
	case eff.Dispatch == lang.DispatchLabel && len(eff.Labels) > 0:
		return eff.Labels[0]
	case eff.Dispatch == lang.DispatchAssign && len(eff.Assignees) > 0:
		return eff.Assignees[0]
	}
	return ""
}
