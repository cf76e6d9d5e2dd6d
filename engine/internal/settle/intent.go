package settle

import (
	"slices"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// until is when an intent written now stops being in flight.
func (in *Intents) until(now time.Time) time.Time {
	if !in.Deadline.IsZero() && in.Deadline.After(now) {
		return minTime(in.Deadline.Add(model.IntentGrace), now.Add(model.MaxIntentLease))
	}
	return now.Add(model.DefaultIntentLease + model.IntentGrace)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// Intend records the intent of write-ahead effect eff of run's current stage, replacing
// an earlier intent of the same key whose outcome stayed unknown, and marks eff.
func Intend(k Kernel, run *model.Run, sr *model.StageRun, eff *model.Effect) {
	in := k.Intents()
	try := 1
	if old, ok := in.Unknown[eff.Key]; ok {
		try = old.Try + 1
	}
	it := model.Intent{Key: eff.Key, Kind: eff.Kind, Stage: eff.Stage, Attempt: sr.Attempt, SHA: k.Facts().PR.HeadSHA,
		Try: try, At: k.Now(), Until: in.until(k.Now())}
	if eff.Kind == model.EffectDispatch {
		it.Dispatch, it.Target = eff.Dispatch, dispatchTarget(*eff)
	}
	run.Intents = append(model.DropIntent(run.Intents, eff.Key), it)
	eff.WriteAhead = true
	if try > 1 {
		k.Logf("run %s: %s asked for again (request %d): the outcome of the request of %s is unknown, and the invocation that made it has ended",
			run.ID, eff.Key, try, in.Unknown[eff.Key].At.UTC().Format(time.RFC3339))
	}
}

// Outcome returns the outcome of the effect of key that the input carries, if any. An
// outcome that does not tell whether the effect was performed (Unknown) is none.
func (in *Intents) Outcome(key string) (model.Outcome, bool) {
	for _, o := range in.Outcomes {
		if o.Key == key && !o.Unknown {
			return o, true
		}
	}
	return model.Outcome{}, false
}

// Performed says how facts show that the effect of it was performed, or "".
func Performed(facts *model.Facts, it model.Intent) string {
	pr := facts.PR
	switch it.Kind {
	case model.EffectMerge:
		if pr.State == model.PRMerged {
			return "the pull request is merged"
		}
	case model.EffectComment, model.EffectDispatch:
		if slices.Contains(pr.Posted, it.Key) {
			return "the comment carrying its marker exists"
		}
		if tr, ok := facts.Dispatches[it.Key]; ok && tr.Seen {
			return tr.Why
		}
	}
	return ""
}

// inFlight keeps a run whose intent may still be being performed where it is: nothing
// is asked for again until its outcome is recorded or the invocation has surely ended.
func inFlight(k Kernel, run *model.Run, it model.Intent) {
	sr := run.Stages[it.Stage]
	if sr.Status != model.StageRetrying {
		sr.Status = model.StageActing
	}
	run.Status = model.RunRunning
	k.Logf("run %s: %s asked for at %s is in flight; not asked for again before its outcome is known or %s",
		run.ID, it.Key, it.At.UTC().Format(time.RFC3339), it.InFlightUntil().UTC().Format(time.RFC3339))
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
