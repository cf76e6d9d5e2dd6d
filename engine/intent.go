package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
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

// reconcile settles the intents found in the state from the facts, before anything else
// happens in Step: what the facts show done is recorded as done; what may still be in
// flight is kept (its run waits); what was left by an invocation that has ended is
// dropped, and its effect is asked for again — under a new intent — only if the run,
// evaluated afresh, still asks for it.
func (e *eval) reconcile() {
	for _, run := range e.St.Runs {
		if len(run.Intents) == 0 {
			continue
		}
		for _, it := range append([]model.Intent(nil), run.Intents...) {
			e.reconcileIntent(run, it)
		}
	}
}

func (e *eval) reconcileIntent(run *model.Run, it model.Intent) {
	drop := func(format string, args ...any) {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		e.Logf("run %s: intent %s: "+format, append([]any{run.ID, it.Key}, args...)...)
	}
	if run.Status.Final() {
		drop("the run is %s; dropped", run.Status)
		return
	}
	if e.reconcileStageEffect(run, it) {
		return
	}
	var stage *lang.Stage
	if p := e.Cfg.PipelineFor(run); p != nil {
		stage = core.StageOrBranch(p, it.Stage)
	}
	if stage != nil && stage.Type == lang.StageAgent {
		e.reconcileDispatch(run, stage, it)
		return
	}
	if fx := effectsOf(stage); fx != nil {
		e.reconcileOwn(e.Cfg.PipelineFor(run), run, stage, fx, it)
		return
	}
	sr := run.Stages[it.Stage]
	if stage == nil || stage.Type != lang.StageAction || !run.At(it.Stage) || sr == nil || sr.Attempt != it.Attempt {
		drop("its pipeline or stage is gone from the config, or the run has moved on from it; dropped")
		return
	}
	if restore := e.intentOnRunPR(run, it); restore != nil {
		defer restore()
	}
	pr := e.Facts.PR
	if o, ok := e.Outcome(it.Key); ok && e.Performed(it) == "" {
		e.Logf("run %s: %s asked for at %s: its outcome, known to this invocation, is recorded", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
		e.settle(run, stage, o)
		return
	}
	if done := e.Performed(it); done != "" {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		run.Applied = model.AppendOnce(run.Applied, it.Key)
		sr.Message = ""
		e.Logf("run %s: %s asked for at %s was performed: %s", run.ID, it.Key, it.At.UTC().Format(time.RFC3339), done)
		e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, e.ActionDoneWhy(stage))
		return
	}
	if e.Now.Before(it.InFlightUntil()) {
		e.InFlight(run, it)
		return
	}
	if it.Kind == model.EffectCreateIssue {
		// Nothing in the facts tells whether the issue was opened; opening it again could
		// open it twice.
		run.Intents = model.DropIntent(run.Intents, it.Key)
		e.actionFailed(run, stage, fmt.Sprintf("the outcome of opening the issue, asked for at %s, is unknown; it is not opened again, so that it is not opened twice", it.At.UTC().Format(time.RFC3339)))
		return
	}
	if it.Kind == model.EffectDispatch && !slices.Contains(pr.Posted, it.Key) && e.notifyAgentUnknown(run, stage, it) {
		return
	}
	e.Intents.Unknown[it.Key] = it
	why := "the comment carrying its marker is not there"
	if it.Kind == model.EffectMerge {
		why = fmt.Sprintf("the pull request is %s at %s", pr.State, model.Short(pr.HeadSHA))
	}
	drop("asked for at %s, its outcome is unknown (%s) and the invocation that asked for it has ended", it.At.UTC().Format(time.RFC3339), why)
}
