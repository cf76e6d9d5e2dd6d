package engine

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Write-ahead effects. A merge or a posted comment cannot be undone, and GitHub does
// not deduplicate it: two invocations that decide it at the same moment would both
// perform it. So the engine first writes it into the state as intended (Run.Intents),
// and the caller saves that state with compare-and-swap before it performs the effect:
// only the invocation whose save won performs it (Effect.WriteAhead). Its outcome then
// clears the intent (Settle). An intent found on load is reconciled from the facts
// before anything else happens (reconcile): the pull request is merged, or the comment
// carrying the effect's marker exists → it was performed; otherwise it is in flight
// until Until, and no invocation asks for it again before then; after that the
// invocation that performed it has ended without recording an outcome, and the effect
// is asked for again only under a rewritten intent (Try + 1), saved first like the
// first one. Adding and removing labels is idempotent on GitHub and has no intent.

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
func (e *eval) until() time.Time {
	if !e.deadline.IsZero() && e.deadline.After(e.now) {
		return minTime(e.deadline.Add(IntentGrace), e.now.Add(MaxIntentLease))
	}
	return e.now.Add(DefaultIntentLease + IntentGrace)
}

// inFlightUntil is when it stops being in flight: Until, but never later than
// MaxIntentLease after it was asked for.
func (it Intent) inFlightUntil() time.Time {
	return minTime(it.Until, it.At.Add(MaxIntentLease))
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// intend records the intent of write-ahead effect eff of run's current stage, replacing
// an earlier intent of the same key whose outcome stayed unknown, and marks eff.
func (e *eval) intend(run *Run, sr *StageRun, eff *Effect) {
	try := 1
	if old, ok := e.unknown[eff.Key]; ok {
		try = old.Try + 1
	}
	it := Intent{Key: eff.Key, Kind: eff.Kind, Stage: eff.Stage, Attempt: sr.Attempt, SHA: e.facts.PR.HeadSHA,
		Try: try, At: e.now, Until: e.until()}
	if eff.Kind == EffectDispatch {
		it.Dispatch, it.Target = eff.Dispatch, dispatchTarget(*eff)
	}
	run.Intents = append(dropIntent(run.Intents, eff.Key), it)
	eff.WriteAhead = true
	if try > 1 {
		e.logf("run %s: %s asked for again (request %d): the outcome of the request of %s is unknown, and the invocation that made it has ended",
			run.ID, eff.Key, try, e.unknown[eff.Key].At.UTC().Format(time.RFC3339))
	}
}

// reconcile settles the intents found in the state from the facts, before anything else
// happens in Step: what the facts show done is recorded as done; what may still be in
// flight is kept (its run waits); what was left by an invocation that has ended is
// dropped, and its effect is asked for again — under a new intent — only if the run,
// evaluated afresh, still asks for it.
func (e *eval) reconcile() {
	for _, run := range e.st.Runs {
		if len(run.Intents) == 0 {
			continue
		}
		for _, it := range append([]Intent(nil), run.Intents...) {
			e.reconcileIntent(run, it)
		}
	}
}

func (e *eval) reconcileIntent(run *Run, it Intent) {
	drop := func(format string, args ...any) {
		run.Intents = dropIntent(run.Intents, it.Key)
		e.logf("run %s: intent %s: "+format, append([]any{run.ID, it.Key}, args...)...)
	}
	if run.Status.Final() {
		drop("the run is %s; dropped", run.Status)
		return
	}
	if e.reconcileStageEffect(run, it) {
		return
	}
	var stage *lang.Stage
	if p := e.cfg.PipelineFor(run); p != nil {
		stage = stageOrBranch(p, it.Stage)
	}
	if stage != nil && stage.Type == lang.StageAgent {
		e.reconcileDispatch(run, stage, it)
		return
	}
	if stage != nil && stage.Type == lang.StageWebhook {
		e.reconcileWebhook(run, stage, it) // step_webhook.go
		return
	}
	sr := run.Stages[it.Stage]
	if stage == nil || stage.Type != lang.StageAction || !run.At(it.Stage) || sr == nil || sr.Attempt != it.Attempt {
		drop("its pipeline or stage is gone from the config, or the run has moved on from it; dropped")
		return
	}
	if restore := e.intentOnRunPR(run, it); restore != nil { // step_issue.go
		defer restore()
	}
	pr := e.facts.PR
	if o, ok := e.outcome(it.Key); ok && e.performed(it) == "" {
		e.logf("run %s: %s asked for at %s: its outcome, known to this invocation, is recorded", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
		e.settle(run, stage, o)
		return
	}
	if done := e.performed(it); done != "" {
		run.Intents = dropIntent(run.Intents, it.Key)
		run.Applied = appendOnce(run.Applied, it.Key)
		sr.Message = ""
		e.logf("run %s: %s asked for at %s was performed: %s", run.ID, it.Key, it.At.UTC().Format(time.RFC3339), done)
		e.leave(run, stage, StageSucceeded, stage.OnSuccess, e.actionDoneWhy(stage))
		return
	}
	if e.now.Before(it.inFlightUntil()) {
		e.inFlight(run, it)
		return
	}
	if it.Kind == EffectCreateIssue {
		// Nothing in the facts tells whether the issue was opened; opening it again could
		// open it twice.
		run.Intents = dropIntent(run.Intents, it.Key)
		e.actionFailed(run, stage, fmt.Sprintf("the outcome of opening the issue, asked for at %s, is unknown; it is not opened again, so that it is not opened twice", it.At.UTC().Format(time.RFC3339)))
		return
	}
	if it.Kind == EffectDispatch && !contains(pr.Posted, it.Key) && e.notifyAgentUnknown(run, stage, it) { // step_notify_agent.go
		return
	}
	e.unknown[it.Key] = it
	why := "the comment carrying its marker is not there"
	if it.Kind == EffectMerge {
		why = fmt.Sprintf("the pull request is %s at %s", pr.State, short(pr.HeadSHA))
	}
	drop("asked for at %s, its outcome is unknown (%s) and the invocation that asked for it has ended", it.At.UTC().Format(time.RFC3339), why)
}

// outcome returns the outcome of the effect of key that the input carries, if any. An
// outcome that does not tell whether the effect was performed (Unknown) is none.
func (e *eval) outcome(key string) (Outcome, bool) {
	for _, o := range e.outcomes {
		if o.Key == key && !o.Unknown {
			return o, true
		}
	}
	return Outcome{}, false
}

// performed says how the facts show that the effect of it was performed, or "".
func (e *eval) performed(it Intent) string {
	pr := e.facts.PR
	switch it.Kind {
	case EffectMerge:
		if pr.State == PRMerged {
			return "the pull request is merged"
		}
	case EffectComment, EffectDispatch:
		if contains(pr.Posted, it.Key) {
			return "the comment carrying its marker exists"
		}
		if tr, ok := e.facts.Dispatches[it.Key]; ok && tr.Seen {
			return tr.Why
		}
	}
	return ""
}

// inFlight keeps a run whose intent may still be being performed where it is: nothing
// is asked for again until its outcome is recorded or the invocation has surely ended.
func (e *eval) inFlight(run *Run, it Intent) {
	sr := run.Stages[it.Stage]
	if sr.Status != StageRetrying {
		sr.Status = StageActing
	}
	run.Status = RunRunning
	e.logf("run %s: %s asked for at %s is in flight; not asked for again before its outcome is known or %s",
		run.ID, it.Key, it.At.UTC().Format(time.RFC3339), it.inFlightUntil().UTC().Format(time.RFC3339))
}

// openIntent returns the intent of run still in flight, if any.
func openIntent(run *Run) (Intent, bool) {
	if len(run.Intents) == 0 {
		return Intent{}, false
	}
	return run.Intents[0], true
}

func dropIntent(list []Intent, key string) []Intent {
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
