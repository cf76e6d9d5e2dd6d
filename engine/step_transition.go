package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// Moving a run between stages, and the record of it.

// leave closes the current stage with status and follows the transition to target.
func (e *eval) leave(run *Run, stage *lang.Stage, status StageStatus, target, why string) {
	if e.leaveBranch(run, stage, status, why) { // step_parallel.go: the join decides
		return
	}
	run.Stages[stage.ID].Status = status
	switch target {
	case lang.TargetComplete, "":
		e.finish(run, RunCompleted, lang.TargetComplete, why)
	case lang.TargetFail:
		e.finish(run, RunFailed, lang.TargetFail, why)
	case lang.TargetEscalate:
		e.escalate(run, why)
	case lang.TargetCancel:
		e.finish(run, RunCancelled, TargetCancelled, why)
	default:
		e.enter(run, stage.ID, target, why)
	}
}

func (e *eval) enter(run *Run, from, to, why string) {
	e.closeBranches(run, why) // step_parallel.go
	sr := run.Stages[to]
	if sr == nil {
		sr = &StageRun{}
		run.Stages[to] = sr
	}
	sr.Attempt++
	sr.Tries = 0
	sr.Status = StageWaiting
	sr.EnteredAt = e.now
	sr.Results = nil
	sr.Message = ""
	sr.Approvals, sr.Reminders = nil, 0 // a new attempt asks anew
	sr.ConditionChecked = false         // and decides its condition anew
	run.Stage = to
	run.Status = RunRunning
	e.arm(run)
	e.record(run, from, to, why)
}

func (e *eval) finish(run *Run, status RunStatus, to, why string) {
	e.closeBranches(run, why) // step_parallel.go
	for _, it := range run.Intents {
		// A final run asks for nothing again; an effect still in flight may yet happen.
		e.logf("run %s: the outcome of %s asked for at %s is not known; the run ends without it", run.ID, it.Key, it.At.UTC().Format(time.RFC3339))
	}
	run.Intents = nil
	run.Status = status
	if status != RunCompleted {
		run.Message = why
	}
	if sr := run.Stages[run.Stage]; sr != nil && status == RunCancelled && !isDone(sr.Status) {
		sr.Status = StageCancelled
	}
	e.record(run, run.Stage, to, why)
	e.logf("run %s %s: %s", run.ID, status, why)
	switch { // step_lists.go
	case strings.HasPrefix(why, "not supported yet"):
		// The action cannot run the pipeline; the run did not fail as the pipeline says.
	case status == RunCompleted:
		e.runList(run, ListOnComplete)
	case status == RunFailed:
		e.runList(run, ListOnError)
	}
}

func (e *eval) record(run *Run, from, to, why string) {
	run.UpdatedAt = e.now
	run.History = append(run.History, Transition{At: e.now, Actor: e.actor, From: from, To: to, Why: why})
	if len(run.History) > MaxHistory {
		run.History = run.History[len(run.History)-MaxHistory:]
	}
}

func (e *eval) findEffect(key string) (*Run, *lang.Stage) {
	for _, run := range e.st.Runs {
		if run.Status.Final() {
			continue
		}
		p := e.cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		if stage != nil && stage.Type == lang.StageAgent && dispatchKey(run, stage) == key {
			return run, stage
		}
		if stage != nil && stage.Type == lang.StageParallel {
			if b := branchEffect(run, stage, key); b != nil { // step_parallel.go
				return run, b
			}
		}
		if stage == nil || stage.Type != lang.StageAction {
			continue
		}
		sr := run.Stages[stage.ID]
		if fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, sr.Attempt, stage.Action) == key {
			return run, stage
		}
	}
	return nil, nil
}

func actionDone(s *lang.Stage) string {
	switch s.Action {
	case lang.ActionMergePR:
		return "merged"
	case lang.ActionAddLabel:
		return "labels added"
	case lang.ActionRemoveLabel:
		return "labels removed"
	case lang.ActionComment:
		return "comment posted"
	}
	return s.Action + " done"
}

// firstUnmet is the message of the first required condition that does not pass.
func firstUnmet(rs []GateResult) string {
	for _, r := range rs {
		if !r.Optional && r.Status != GatePass {
			return r.Check + ": " + r.Message
		}
	}
	return ""
}

// failures lists the messages of every required condition that decidedly failed, so
// that a gate failing for several reasons says them all in one place.
func failures(rs []GateResult) string {
	var out []string
	for _, r := range rs {
		if !r.Optional && r.Status == GateFail {
			out = append(out, r.Message)
		}
	}
	return strings.Join(out, "; ")
}

func isDone(s StageStatus) bool {
	return s == StagePassed || s == StageSucceeded || s == StageFailed
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func appendOnce(xs []string, x string) []string {
	if contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
