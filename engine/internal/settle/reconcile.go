package settle

import (
	"fmt"
	"slices"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Reconcile settles the intents found in the state from the facts, before anything else
// happens in a step: what the facts show done is recorded as done; what may still be in
// flight is kept (its run waits); what was left by an invocation that has ended is
// dropped, and its effect is asked for again — under a new intent — only if the run,
// evaluated afresh, still asks for it.
func Reconcile(k Kernel) {
	for _, run := range k.Runs() {
		if len(run.Intents) == 0 {
			continue
		}
		for _, it := range append([]model.Intent(nil), run.Intents...) {
			reconcileIntent(k, run, it)
		}
	}
}

func reconcileIntent(k Kernel, run *model.Run, it model.Intent) {
	drop := func(format string, args ...any) {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		k.Logf("run %s: intent %s: "+format, append([]any{run.ID, it.Key}, args...)...)
	}
	if run.Status.Final() {
		drop("the run is %s; dropped", run.Status)
		return
	}
	if reconcileStageEffect(k, run, it) {
		return
	}
	stage := k.Stage(run, it.Stage)
	if stage != nil && stage.Type == lang.StageAgent {
		reconcileDispatch(k, run, stage, it)
		return
	}
	if stage != nil {
		if fx := k.Own(stage); fx != nil {
			reconcileOwn(k, run, stage, fx, it)
			return
		}
	}
	sr := run.Stages[it.Stage]
	if stage == nil || stage.Type != lang.StageAction || !run.At(it.Stage) || sr == nil || sr.Attempt != it.Attempt {
		drop("its pipeline or stage is gone from the config, or the run has moved on from it; dropped")
		return
	}
	if restore := k.OnRunPR(run, it); restore != nil {
		defer restore()
	}
	pr := k.Facts().PR
	if o, ok := k.Intents().Outcome(it.Key); ok && Performed(k.Facts(), it) == "" {
		k.Logf("run %s: %s asked for at %s: its outcome, known to this invocation, is recorded", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
		Settle(k, run, stage, o)
		return
	}
	if done := Performed(k.Facts(), it); done != "" {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		run.Applied = model.AppendOnce(run.Applied, it.Key)
		sr.Message = ""
		k.Logf("run %s: %s asked for at %s was performed: %s", run.ID, it.Key, it.At.UTC().Format(time.RFC3339), done)
		k.Leave(run, stage, model.StageSucceeded, stage.OnSuccess, k.ActionDoneWhy(stage))
		return
	}
	if k.Now().Before(it.InFlightUntil()) {
		inFlight(k, run, it)
		return
	}
	if it.Kind == model.EffectCreateIssue {
		// Nothing in the facts tells whether the issue was opened; opening it again could
		// open it twice.
		run.Intents = model.DropIntent(run.Intents, it.Key)
		k.ActionFailed(run, stage, fmt.Sprintf("the outcome of opening the issue, asked for at %s, is unknown; it is not opened again, so that it is not opened twice", it.At.UTC().Format(time.RFC3339)))
		return
	}
	if it.Kind == model.EffectDispatch && !slices.Contains(pr.Posted, it.Key) && k.NotifyAgentUnknown(run, stage, it) {
		return
	}
	k.Intents().Unknown[it.Key] = it
	why := "the comment carrying its marker is not there"
	if it.Kind == model.EffectMerge {
		why = fmt.Sprintf("the pull request is %s at %s", pr.State, model.Short(pr.HeadSHA))
	}
	drop("asked for at %s, its outcome is unknown (%s) and the invocation that asked for it has ended", it.At.UTC().Format(time.RFC3339), why)
}

// reconcileOwn settles intent it of run, of a stage whose type reads its own effects'
// outcomes: its outcome when this invocation knows it, else in flight while its
// invocation may still be performing it, else lost.
func reconcileOwn(k Kernel, run *model.Run, s *lang.Stage, fx stage.Effects, it model.Intent) {
	sr := run.Stages[it.Stage]
	if run.Stage != it.Stage || sr == nil || sr.Attempt != it.Attempt || !fx.Owns(run, s, it.Key) {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		k.Logf("run %s: intent %s: the run has moved on from it; dropped", run.ID, it.Key)
		return
	}
	if o, ok := k.Intents().Outcome(it.Key); ok {
		run.Intents = model.DropIntent(run.Intents, it.Key)
		k.OwnDecided(run, s, func(c stage.Context) stage.Decision { return fx.Settle(c, run, s, o) })
		return
	}
	if k.Now().Before(it.InFlightUntil()) {
		inFlight(k, run, it)
		return
	}
	run.Intents = model.DropIntent(run.Intents, it.Key)
	k.OwnDecided(run, s, func(c stage.Context) stage.Decision { return fx.Lost(c, run, s, it) })
}
