package engine

import (
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/chatops"
	"github.com/org/pipeline-action/engine/internal/deadline"
	"github.com/org/pipeline-action/engine/internal/doneby"
	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/internal/settle"
	"github.com/org/pipeline-action/engine/lang"
)

// Settle applies the outcomes of performed effects and advances the runs again;
// it may return further effects. in is the input Step handled (its actor is recorded
// in history). Like Step, it is pure.
func Settle(cfg *lang.Config, st *model.State, in model.Input, outcomes []model.Outcome, facts *model.Facts, now time.Time) model.Result {
	e := newEval(cfg, st, facts, now, in)
	e.Settle.Settling = true
	if e.DoneBy == "" {
		e.DoneBy = doneby.Noted(e.St.Runs, e.Facts.PR, outcomes)
	}
	k := settleKernel{e}
	for _, o := range outcomes {
		if settle.Unanswered(k, o) || deadline.SideOutcome(o, e.Logf) || settle.UpdateBehind(k, o) || settle.StageEffect(k, o) || chatops.Settled(o, e.Logf) || settle.Own(k, o) {
			continue
		}
		run, stage := e.FindEffect(o.Key)
		if run == nil && rules.ListOutcome(e.Logf, o) {
			continue
		}
		if run == nil {
			e.Logf("outcome of %s matches no acting stage; ignored", o.Key)
			continue
		}
		settle.Settle(k, run, stage, o)
	}
	e.advanceAll()
	return e.Result(st)
}
