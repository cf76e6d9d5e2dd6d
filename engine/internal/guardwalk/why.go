package guardwalk

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// Why says why the guard sends run back to s, a gate or human stage that does not hold on
// today's facts: a human stage by what HumanHolds finds, a gate by the head that moved
// since the run's gates passed (moved) or by the first check of held, its results, unmet.
func Why(e *core.Eval, run *model.Run, s *lang.Stage, moved bool, held []model.GateResult) string {
	pr := e.Facts.PR
	if s.Type == lang.StageHuman {
		_, why := e.Rules().HumanHolds(run, s)
		return fmt.Sprintf("human stage %q does not hold on %s (%s); asking again", s.ID, model.Short(pr.HeadSHA), why)
	}
	if moved {
		return fmt.Sprintf("head moved from %s to %s after gate %q passed; checking again",
			model.Short(run.VerifiedSHA), model.Short(pr.HeadSHA), run.VerifiedBy)
	}
	verb := "does not hold"
	if sr := run.Stages[s.ID]; sr != nil && sr.Status == model.StagePassed {
		verb = "no longer holds"
	}
	return fmt.Sprintf("gate %q %s (%s); checking again", s.ID, verb, model.FirstUnmet(held))
}
