package core

import (
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

func ArmTimeout(stage *lang.Stage, sr *model.StageRun, now time.Time) {
	if stage.Timeout > 0 {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineTimeout, At: now.Add(stage.Timeout)})
	}
}

// DropDeadlines forgets the deadlines of a run that can no longer act on them (its
// pipeline left the config), so that the sweep does not come back for it every time.
func (e *Eval) DropDeadlines(run *model.Run) {
	if sr := run.Stages[run.Stage]; sr != nil && len(sr.Deadlines) > 0 {
		sr.Deadlines = nil
		e.Logf("run %s: its deadlines are dropped: nothing can act on them without its pipeline", run.ID)
	}
}
