package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/deadline"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/stage"
)

// Settle applies the outcomes of performed effects and advances the runs again;
// it may return further effects. in is the input Step handled (its actor is recorded
// in history). Like Step, it is pure.
func Settle(cfg *lang.Config, st *model.State, in model.Input, outcomes []model.Outcome, facts *model.Facts, now time.Time) model.Result {
	e := newEval(cfg, st, facts, now, in)
	e.Settle.Settling = true
	e.noteDone(outcomes)
	for _, o := range outcomes {
		if e.unanswered(o) || deadline.SideOutcome(o, e.Logf) || e.settleUpdateBehind(o) || e.settleStageEffect(o) || e.SettleReply(o) || e.settleOwn(o) {
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

// settle records outcome o of the effect of run's current stage (or of a branch of it):
// the intent is settled, the effect recorded done or refused, and the stage's type decides.
func (e *eval) settle(run *model.Run, s *lang.Stage, o model.Outcome) {
	if s.Type == lang.StageAgent {
		e.settleDispatch(run, s, o)
		return
	}
	run.Intents = model.DropIntent(run.Intents, o.Key) // its outcome is known now
	if o.Err == "" {
		run.Applied = model.AppendOnce(run.Applied, o.Key)
	} else {
		e.NoteRefused(run)
	}
	u, _ := stageTypes[s.Type].(unit)
	st, ok := u.t.(stage.Settler)
	if !ok {
		e.Logf("run %s: outcome of %s: stage %q reads no outcome; ignored", run.ID, o.Key, s.ID)
		return
	}
	c := e.context(e.Cfg.PipelineFor(run), run)
	c.applyIn(s, st.Settled(c, run, s, o))
}
