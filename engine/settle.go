package engine

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// Settle applies the outcomes of performed effects and advances the runs again;
// it may return further effects. in is the input Step handled (its actor is recorded
// in history). Like Step, it is pure.
func Settle(cfg *lang.Config, st *model.State, in model.Input, outcomes []model.Outcome, facts *model.Facts, now time.Time) model.Result {
	e := newEval(cfg, st, facts, now, in)
	e.Settle.Settling = true
	e.noteDone(outcomes)
	for _, o := range outcomes {
		if e.unanswered(o) || e.SideOutcome(o) || e.settleUpdateBehind(o) || e.settleStageEffect(o) || e.SettleReply(o) || e.settleOwn(o) {
			continue
		}
		run, stage := e.FindEffect(o.Key)
		if run == nil && e.ListOutcome(o) {
			continue
		}
		if run == nil {
			e.Logf("outcome of %s matches no acting stage; ignored", o.Key)
			continue
		}
		e.settle(run, stage, o)
	}
	e.advanceAll()
	return e.Result(st)
}

// settle records outcome o of the effect of run's current stage.
func (e *eval) settle(run *model.Run, stage *lang.Stage, o model.Outcome) {
	if stage.Type == lang.StageAgent {
		e.settleDispatch(run, stage, o)
		return
	}
	sr := run.Stages[stage.ID]
	run.Intents = model.DropIntent(run.Intents, o.Key) // its outcome is known now
	if o.Err == "" {
		run.Applied = model.AppendOnce(run.Applied, o.Key)
		sr.Message = ""
		e.leave(run, stage, model.StageSucceeded, stage.OnSuccess, e.ActionDoneWhy(stage))
		return
	}
	e.NoteRefused(run)
	sr.Tries++
	sr.Message = fmt.Sprintf("%s; tried %d %s", o.Err, sr.Tries, model.Plural(sr.Tries, "time", "times"))
	if o.Escalate {
		e.mergeRefused(run, stage, o)
		return
	}
	if o.Permanent && (stage.OnFailure != "" || e.IsBranch(run, stage)) {
		e.leave(run, stage, model.StageFailed, stage.OnFailure, o.Err)
		return
	}
	if o.Permanent {
		sr.Status = model.StageFailed
		e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("stage %q failed: %s", stage.ID, o.Err))
		return
	}
	if o.RetryAt.IsZero() {
		sr.Message += "; trying again on the next event"
	} else { // a rate limit: the sweep comes back when it ends, should no event come first
		sr.Message += "; trying again on the next event, or at " + o.RetryAt.UTC().Format(time.RFC3339) + " when GitHub's rate limit ends"
		core.RetryWhenLimitEnds(sr, o.RetryAt)
	}
	sr.Status = model.StageRetrying
	run.Status = model.RunWaiting
	e.Logf("run %s: %s %s", run.ID, stage.Action, sr.Message)
}
