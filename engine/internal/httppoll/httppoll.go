package httppoll

import (
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Kind is the deadline kind of the next look at a gate's http checks.
const Kind = "http_poll"

// Interval is how long a gate with an http check waits before the sweep evaluates it
// again (the sweep's schedule may make it longer).
const Interval = 5 * time.Minute

// Arm adds the next poll to sr, the run of stage, when stage is a gate with an http check
// and no poll is armed yet.
func Arm(stage *lang.Stage, sr *model.StageRun, now time.Time) {
	if stage == nil || sr == nil || !polls(stage) {
		return
	}
	for _, d := range sr.Deadlines {
		if d.Kind == Kind {
			return
		}
	}
	sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: Kind, At: now.Add(Interval)})
}

// polls reports whether a condition of stage is an http check.
func polls(stage *lang.Stage) bool {
	for _, c := range stage.AllConditions() {
		if c.BuiltinCheck() == "http" {
			return true
		}
	}
	return false
}
