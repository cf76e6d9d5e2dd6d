package core

import (
	"fmt"
	"strings"
	"time"

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

// ArmDelay arms a delay stage: its end, and its first poll.
func ArmDelay(stage *lang.Stage, sr *model.StageRun, now time.Time) {
	if stage.Type != lang.StageDelay {
		return
	}
	end := now.Add(stage.Duration)
	sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlineDelay, At: end})
	if p := stage.Poll; p != nil && p.Interval > 0 && now.Add(p.Interval).Before(end) {
		sr.Deadlines = append(sr.Deadlines, model.Deadline{Kind: model.DeadlinePoll, At: now.Add(p.Interval)})
	}
}

// DelayWait keeps a delay stage waiting until one of its deadlines moves it.
func (e *Eval) DelayWait(run *model.Run, stage *lang.Stage) bool {
	sr := run.Stages[stage.ID]
	sr.Status = model.StageWaiting
	run.Status = model.RunWaiting
	return false
}

// NextOf is where a stage goes on by default: target when set, else the next stage in
// the pipeline, else complete.
func NextOf(p *lang.Pipeline, stage *lang.Stage, target string) string {
	if target != "" {
		return target
	}
	for i, s := range p.Stages {
		if s.ID == stage.ID && i+1 < len(p.Stages) {
			return p.Stages[i+1].ID
		}
	}
	return lang.TargetComplete
}
