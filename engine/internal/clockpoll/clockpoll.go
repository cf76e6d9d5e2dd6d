// Package clockpoll arms the deadline of a gate whose checks change with time alone (a merge
// window, model.Clocked): the sweep evaluates the gate again at the next edge, with no event.
package clockpoll

import (
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Kind is the deadline kind of the next edge of a gate's clocked checks.
const Kind = "clock"

// Arm sets sr's deadline of Kind to the first edge after now of stage's clocked checks,
// dropping one no edge is left for.
func Arm(stage *lang.Stage, sr *model.StageRun, now time.Time) {
	if stage == nil || sr == nil {
		return
	}
	var next time.Time
	for _, c := range stage.AllConditions() {
		if k, ok := c.Eval.(model.Clocked); ok {
			if at := k.NextChange(now); !at.IsZero() && (next.IsZero() || at.Before(next)) {
				next = at
			}
		}
	}
	sr.DropDeadlines(Kind)
	if !next.IsZero() {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: Kind, At: next})
	}
}
