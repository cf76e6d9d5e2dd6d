package settle

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"
)

// Unanswered settles an outcome that does not tell whether its effect was performed
// (Outcome.Unknown: GitHub did not answer in time, answered 5xx, or the connection was
// cut after the request left), and reports whether o was one. Sending it again at once
// could perform it twice, so the effect's intent stays, as if no outcome were known: its
// run waits, as for an effect in flight, and later events reconcile it from what GitHub
// shows — done if that shows it performed, asked for again only when that shows it
// certainly was not (Reconcile). An agent's label or
// assign dispatch holds no intent (adding either twice changes nothing on GitHub); one is
// written here, in flight no longer than this moment, so that the next event looks before
// sending it again. A merge is settled as a refusal, tried again on the next event: a
// pull request merges once, so GitHub refuses a second merge, and the facts show the
// first. So is an effect without an intent otherwise: it is idempotent.
func Unanswered(k Kernel, o model.Outcome) bool {
	if !o.Unknown {
		return false
	}
	for _, run := range k.Runs() {
		for _, it := range run.Intents {
			if it.Key != o.Key || run.Status.Final() {
				continue
			}
			if it.Kind == model.EffectMerge {
				return false
			}
			answerLost(k, run, o)
			return true
		}
	}
	run, stage := k.FindEffect(o.Key)
	if run == nil || stage.Type != lang.StageAgent {
		return false
	}
	ag := k.Config().Agent(stage.Agent)
	sr := run.Stages[stage.ID]
	if ag == nil || sr == nil || agent.DispatchWriteAhead(ag.Dispatch) {
		return false
	}
	target := ag.Label
	if ag.Dispatch == lang.DispatchAssign {
		target = ag.Assignee
	}
	run.Intents = append(run.Intents, model.Intent{Key: o.Key, Kind: model.EffectDispatch, Stage: stage.ID, Attempt: sr.Attempt,
		SHA: k.Facts().PR.HeadSHA, Try: 1, At: k.Now(), Until: k.Now(), Dispatch: ag.Dispatch, Target: target})
	answerLost(k, run, o)
	return true
}

// answerLost leaves run waiting on its intent of o.Key, saying why.
func answerLost(k Kernel, run *model.Run, o model.Outcome) {
	for _, it := range run.Intents {
		if it.Key != o.Key {
			continue
		}
		sr := run.Stages[it.Stage]
		if sr == nil {
			return
		}
		sr.Message = fmt.Sprintf("%s: %s; it may have been performed: the next events look whether it was, and ask for it again only if it certainly was not", o.Key, o.Err)
		k.Logf("run %s: %s", run.ID, sr.Message)
		inFlight(k, run, it)
		return
	}
}
