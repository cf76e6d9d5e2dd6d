package engine

import (
	"sort"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/clockpoll"
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/httppoll"
	"github.com/org/pipeline-action/engine/lang"
)

// Deadlines are the absolute times a run's current stage waits for: its timeout, the end
// of a delay, a delay's next poll, a human stage's next reminder. They are armed when the
// stage is entered (the armers below), kept in StageRun.Deadlines, and handled by any
// evaluation whose now is at or past them (the handlers below) — an event, or the sweep
// that reads Run.NextDeadline from the state branch's index. A deadline leaves the list
// when it is acted on, in the same saved state as what it did, so each is acted on once.

// deadlineArmer adds the deadlines of stage to sr, which was just entered at now.
type deadlineArmer func(stage *lang.Stage, sr *model.StageRun, now time.Time)

// deadlineHandler acts on deadline d of run's current stage, which is due. It reports
// whether the run moved (another stage, or a new status); a handler that only acted
// (a reminder, an extension) returns false, and the stage is evaluated as usual.
type deadlineHandler func(e *eval, p *lang.Pipeline, run *model.Run, stage *lang.Stage, d model.Deadline) bool

// deadlineArmers run in order on every stage entry, before the stage type's own (its arm);
// deadlineHandlers act on the deadlines any stage may have, by kind, and a stage type
// handles those of its own (its deadline).
var (
	deadlineArmers   = []deadlineArmer{core.ArmTimeout, httppoll.Arm, clockpoll.Arm}
	deadlineHandlers = map[string]deadlineHandler{
		model.DeadlineTimeout:      (*eval).timedOut,
		model.DeadlineMergeability: (*eval).MergeabilityDue,
		model.DeadlineFollow:       (*eval).FollowDue,
		// A rate limit ended: the stage is evaluated as usual, which tries its effect again.
		model.DeadlineRetry: func(*eval, *lang.Pipeline, *model.Run, *lang.Stage, model.Deadline) bool { return false },
		clockpoll.Kind: func(e *eval, _ *lang.Pipeline, run *model.Run, stage *lang.Stage, _ model.Deadline) bool {
			clockpoll.Arm(stage, run.Stages[stage.ID], e.Now) // the next edge; the gate is evaluated as usual
			return false
		},
		httppoll.Kind: func(e *eval, _ *lang.Pipeline, run *model.Run, stage *lang.Stage, _ model.Deadline) bool {
			httppoll.Arm(stage, run.Stages[stage.ID], e.Now) // the next poll; the gate is evaluated as usual
			return false
		},
	}
)

// arm sets the deadlines of the stage run has just entered, and drops those of the
// stages it left: left, the stage it stood at before. Deadlines are only ever added to
// the current stage, so once every other stage has been swept clear in this evaluation,
// clearing the one left keeps them so, and entering a stage costs the same however many
// stages the run has.
func (e *eval) arm(run *model.Run, left string) {
	if e.Swept[run] {
		if sr := run.Stages[left]; sr != nil && left != run.Stage {
			sr.Deadlines = nil
		}
	} else {
		for id, sr := range run.Stages {
			if id != run.Stage {
				sr.Deadlines = nil
			}
		}
		if e.Swept == nil {
			e.Swept = map[*model.Run]bool{}
		}
		e.Swept[run] = true
	}
	sr := run.Stages[run.Stage]
	sr.Deadlines = nil
	p := e.Cfg.PipelineFor(run)
	if p == nil {
		return
	}
	stage := e.StageOf(p, run.Stage)
	if stage == nil {
		return
	}
	for _, a := range deadlineArmers {
		a(stage, sr, e.Now)
	}
	if t := stageTypes[stage.Type]; t != nil {
		t.arm(stage, sr, e.Now)
	}
}

// due acts on the deadlines of run's current stage that now has reached, oldest first,
// each once. stop says the run moved, and whether it did is moved (advance's result).
func (e *eval) due(p *lang.Pipeline, run *model.Run, stage *lang.Stage) (moved, stop bool) {
	sr := run.Stages[stage.ID]
	if sr == nil {
		return false, false
	}
	for {
		sort.SliceStable(sr.Deadlines, func(i, j int) bool { return sr.Deadlines[i].At.Before(sr.Deadlines[j].At) })
		if len(sr.Deadlines) == 0 || sr.Deadlines[0].At.After(e.Now) {
			return false, false
		}
		d := sr.Deadlines[0]
		sr.Deadlines = sr.Deadlines[1:]
		if len(sr.Deadlines) == 0 {
			sr.Deadlines = nil
		}
		h := deadlineHandlers[d.Kind]
		if t := stageTypes[stage.Type]; h == nil && t != nil {
			h = t.deadline(d.Kind)
		}
		if h == nil {
			e.finish(run, model.RunFailed, lang.TargetFail, "not supported yet: deadline "+d.Kind+" of stage "+stage.ID)
			return false, true
		}
		at, attempt := run.Stage, sr.Attempt
		if h(e, p, run, stage, d) || run.Status.Final() || run.Status == model.RunEscalated || run.Stage != at || sr.Attempt != attempt {
			return !run.Status.Final() && run.Status != model.RunEscalated, true
		}
	}
}
