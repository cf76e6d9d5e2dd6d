package chatops

import (
	"time"

	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// World is what chat-ops read of the evaluation.
type World struct {
	Cfg *lang.Config
	// St is the subject's state: the unit keeps in it the commands seen, the refusals
	// replied to, the comments disowned and the pipelines enabled; it reads the runs.
	St *model.State
	// Facts are the subject's facts: Facts.PR holds its comments (an issue's too).
	Facts *model.Facts
	Now   time.Time
	// Issue says the subject is an issue.
	Issue bool
}

// Kernel is what chat-ops need of the evaluator.
type Kernel interface {
	// World is what the evaluation reads now.
	World() World
	Logf(format string, args ...any)
	// Emit asks for an effect.
	Emit(eff model.Effect)
	// Rules are the rules of authority on the facts read in this invocation.
	Rules() *authority.Rules
	// HeadOf is the head run's pull request has now.
	HeadOf(run *model.Run) string
	// PassesOver reports whether command verb passes over run, which another run steps.
	PassesOver(run *model.Run, verb string) bool
	// Move does to run what a command asks (m).
	Move(run *model.Run, m Move)
	// Startable says why pipeline name may not be started by hand on the subject, or ""
	// and the pipeline.
	Startable(name string) (*lang.Pipeline, string)
	// Dispatchable says why the workflow_dispatch of in may not start the pipeline it
	// names, or "" and the pipeline.
	Dispatchable(in model.Input) (*lang.Pipeline, string)
	// Start starts p on the subject for in (by hand, for in.Actor); it says why it did not,
	// or "".
	Start(p *lang.Pipeline, in model.Input, why string) string
}

// MoveKind is what a command does to a run.
type MoveKind int

const (
	// Approve counts Held as an approval at the run's current (human) stage.
	Approve MoveKind = iota + 1
	// Retry is a new attempt of the current stage (a restart a reaction deferred, if any).
	Retry
	// Skip leaves the current stage as skipped for To; Held, at a human stage, is the
	// skip as the merge guard counts it.
	Skip
	// Cancel cancels the run.
	Cancel
	// Unblock lets an escalated run go on where it stopped: the same attempt (or a
	// restart a reaction deferred).
	Unblock
	// Enter is a new attempt at stage To.
	Enter
	// Restart starts again at stage To, the head verified anew.
	Restart
)

// Move is what a command does to one run: Kind, by Actor, for history Why.
type Move struct {
	Kind  MoveKind
	To    string
	Why   string
	Actor string
	Held  *model.Approval
}
