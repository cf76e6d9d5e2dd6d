package engine

import (
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/rules"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/stage/action"
	"github.com/org/pipeline-action/engine/stage/parallel"
)

// Moving a run between stages, and the record of it.

// leave closes the current stage with status and follows the transition to target.
func (e *eval) leave(run *model.Run, stage *lang.Stage, status model.StageStatus, target, why string) {
	if e.LeaveBranch(run, stage, status, why) { // the join decides
		return
	}
	run.Stages[stage.ID].Status = status
	switch target {
	case lang.TargetComplete, "":
		e.finish(run, model.RunCompleted, lang.TargetComplete, why)
	case lang.TargetFail:
		e.finish(run, model.RunFailed, lang.TargetFail, why)
	case lang.TargetEscalate:
		e.escalate(run, why)
	case lang.TargetCancel:
		e.finish(run, model.RunCancelled, TargetCancelled, why)
	default:
		e.enter(run, stage.ID, target, why)
	}
}

func (e *eval) enter(run *model.Run, from, to, why string) {
	parallel.Close(e.context(e.Cfg.PipelineFor(run), run), run, why)
	sr := run.Stages[to]
	if sr == nil {
		sr = &model.StageRun{}
		run.Stages[to] = sr
	}
	sr.Attempt++
	sr.Tries = 0
	sr.Status = model.StageWaiting
	sr.EnteredAt = e.Now
	sr.Results = nil
	sr.Message = ""
	sr.Approvals, sr.Reminders = nil, 0 // a new attempt asks anew
	sr.ConditionChecked = false         // and decides its condition anew
	left := run.Stage
	run.Stage = to
	run.Status = model.RunRunning
	e.Deadlines.Arm(deadlineKernel{e: e}, run, left)
	e.Record(run, from, to, why)
}

func (e *eval) finish(run *model.Run, status model.RunStatus, to, why string) {
	parallel.Close(e.context(e.Cfg.PipelineFor(run), run), run, why)
	for _, it := range run.Intents {
		// A final run asks for nothing again; an effect still in flight may yet happen.
		e.Logf("run %s: the outcome of %s asked for at %s is not known; the run ends without it", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
	}
	run.Intents = nil
	if p := e.Cfg.PipelineFor(run); p != nil && status != model.RunCompleted && p.Stage(run.Stage) != nil {
		if eff := action.Abandoned(run, p.Stage(run.Stage), e.Facts.PR); eff != nil {
			e.Logf("run %s: it put the pull request in the merge queue; taking it out", run.ID)
			e.Effects = append(e.Effects, *eff)
		}
	}
	run.Status = status
	if status != model.RunCompleted {
		run.Message = why
	}
	if sr := run.Stages[run.Stage]; sr != nil && status == model.RunCancelled && !core.IsDone(sr.Status) {
		sr.Status = model.StageCancelled
	}
	e.Record(run, run.Stage, to, why)
	e.Logf("run %s %s: %s", run.ID, status, why)
	switch {
	case strings.HasPrefix(why, "not supported yet"):
		// The action cannot run the pipeline; the run did not fail as the pipeline says.
	case status == model.RunCompleted:
		rules.List(rulesKernel{e}, run, model.ListOnComplete)
	case status == model.RunFailed:
		rules.List(rulesKernel{e}, run, model.ListOnError)
	}
}

// escalate stops run for a person, and asks for its pipeline's on_error list: the run
// moves again only on a command (package chatops).
func (e *eval) escalate(run *model.Run, why string) {
	if sr := run.Stages[run.Stage]; sr != nil {
		sr.Deadlines = nil // it waits for a person, not for time
	}
	run.Status = model.RunEscalated
	run.Message = why
	e.Record(run, run.Stage, lang.TargetEscalate, why)
	e.Logf("run %s escalated at %s: %s; it waits for a person (/pipeline retry, skip, unblock, restart or cancel)", run.ID, run.Stage, why)
	rules.List(rulesKernel{e}, run, model.ListOnError)
}
