package run

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/state"
)

// reportBudget refuses a report whose outputs would take the state past its budget:
// nothing of it is recorded or performed, and the agent's job fails
// with the reason, so that a state once saved can always be saved again and the run
// still waits for a report that fits. Other events are not refused here: only a report
// brings in outputs of that size.
func reportBudget(rep *engine.Report, store *state.Dual, next *engine.State) error {
	if rep == nil {
		return nil
	}
	err := store.Budget(next)
	var over *state.BudgetError
	if !errors.As(err, &over) {
		return err
	}
	size := 0
	if b, jerr := json.Marshal(rep.Outputs); jerr == nil && rep.Outputs != nil {
		size = len(b)
	}
	return fmt.Errorf("report %s for run %s, stage %s, attempt %d refused: with its outputs (%d bytes of JSON) %v; nothing was recorded, and the stage still waits for a report: report again with smaller outputs (put anything large in an artifact or a file, and link to it)",
		rep.Verdict, rep.Run, rep.Stage, rep.Attempt, size, err)
}
