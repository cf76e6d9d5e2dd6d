package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// TimeoutKey is the key of an effect of on_timeout (kind) for timeout d of the stage's
// entry attempt: each timeout of an entry (the first, then one per extension) has its own.
func TimeoutKey(run *model.Run, stage *lang.Stage, attempt int, d model.Deadline, kind model.EffectKind) string {
	return fmt.Sprintf("%s/%s/%d/on_timeout/%d/%s", run.ID, stage.ID, attempt, d.N+1, kind)
}

// SideOutcome reports whether o is the outcome of an effect a deadline asked for (an
// on_timeout label or notification), which no acting stage waits for: it is logged,
// nothing more.
func (e *Eval) SideOutcome(o model.Outcome) bool {
	if !strings.Contains(o.Key, "/on_timeout/") {
		return false
	}
	if o.Err != "" {
		e.Logf("%s: %s; it is not tried again", o.Key, o.Err)
	}
	return true
}
