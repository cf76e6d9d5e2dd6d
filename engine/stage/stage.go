// Package stage is the contract between the kernel that moves runs and the types of stage:
// what a type sees of one evaluation (Context) and what it answers (Decision). A type lives
// in its own package under engine/stage, imports this package, engine/model and
// engine/lang, and never the kernel nor another type: it reads the world through Context,
// changes only the stage run of its own stage, and leaves the moving of the run — leaving
// the stage, finishing the run — to the kernel, which applies its Decision.
package stage

import (
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Context is what a stage type sees of the evaluation of the run standing at its stage.
type Context interface {
	// Facts are what was read of GitHub for this event.
	Facts() *model.Facts
	// Settings are the config's settings.
	Settings() *lang.Settings
	// Pipeline is the definition the run follows.
	Pipeline() *lang.Pipeline
	// Now is the time of the event, never the machine's clock.
	Now() time.Time
	// Env is the run's expression environment, which conditions read.
	Env() lang.Env
	// TemplateEnv is Env with what templates may also read (the trigger).
	TemplateEnv() lang.Env
	// Emit asks for eff, an effect to perform once the state is saved.
	Emit(eff model.Effect)
	// Intend writes eff ahead: the run holds its intent, and only the invocation whose
	// save of that state won performs it. sr is the stage run eff belongs to.
	Intend(sr *model.StageRun, eff *model.Effect)
	// Logf records a line of the evaluation's log.
	Logf(format string, args ...any)
	// Conditions evaluates the conditions of s (a gate's checks and any_of groups) on
	// the facts, for the run: blocked when a required one does not pass, failed when one
	// decidedly fails.
	Conditions(s *lang.Stage) (results []model.GateResult, blocked, failed bool)
	Agents
	Actions
	People
	Branches
	Children
}

// Decision is what a type decided of the run at its stage: to stay (the zero Decision),
// to leave the stage with a status for a target, saying why, or to follow one of the
// stage's rules.
type Decision struct {
	Leave  bool
	Status model.StageStatus
	Target string
	Why    string
	// Rule, when set, is a rule of the stage to follow (RuleKind names it, "on_fail"):
	// its notify and label once per attempt, then its loop or its then. A rule that does
	// not move the run (notify_and_wait, no target) keeps it waiting at the stage.
	Rule     *lang.Rule
	RuleKind string
	Answer
	// Move, when set, asks the kernel for a move of that kind (Hold, Escalate, Fail, Abort,
	// Back, Loop); Who is who may lift a hold.
	Move Move
	Who  string
}

// Follow follows rule, the stage's rule of kind (model.RuleOnFail …), saying why.
func Follow(rule *lang.Rule, kind, why string) Decision {
	return Decision{Rule: rule, RuleKind: kind, Why: why}
}

// Stay keeps the run at its stage.
func Stay() Decision { return Decision{} }

// Leave moves the run from its stage, which ends with status, to target.
func Leave(status model.StageStatus, target, why string) Decision {
	return Decision{Leave: true, Status: status, Target: target, Why: why}
}

// Type is one type of stage.
type Type interface {
	// Arm adds the deadlines of the type's own to sr, whose stage was just entered at now.
	Arm(s *lang.Stage, sr *model.StageRun, now time.Time)
	// Step evaluates run, which stands at s, once.
	Step(c Context, run *model.Run, s *lang.Stage) Decision
	// Deadline acts on d, a deadline of the type's own kind that fell due; handled is
	// false for a kind the type does not know.
	Deadline(c Context, run *model.Run, s *lang.Stage, d model.Deadline) (dec Decision, handled bool)
	// Worker is who works on s as the status shows it: its kind ("agent") and name, or
	// "" and "" when nobody but the kernel does.
	Worker(s *lang.Stage) (kind, name string)
}

// Effects is implemented by a type whose stages ask for effects of their own, written
// ahead, whose outcomes it reads itself.
type Effects interface {
	// Owns reports whether key is the effect run's stage s asked for.
	Owns(run *model.Run, s *lang.Stage, key string) bool
	// Settle records o, the outcome of the effect s asked for.
	Settle(c Context, run *model.Run, s *lang.Stage, o model.Outcome) Decision
	// Lost decides of it, an intent whose outcome nothing on GitHub shows and whose
	// invocation has surely ended.
	Lost(c Context, run *model.Run, s *lang.Stage, it model.Intent) Decision
}

// Guard is what the merge guard knows of today's facts, for a type re-checking a stage of
// its own on a path to the merge.
type Guard interface {
	// Skips reports whether the condition of s decidedly does not hold today.
	Skips(s *lang.Stage) bool
	// Holds reports whether the conditions of s hold on today's facts.
	Holds(s *lang.Stage) bool
	// Failing reports whether the conditions of s, found not to hold, decidedly fail.
	Failing(s *lang.Stage) bool
	Witnesses
	Joins
	Subs
}

// Guarded is implemented by a type whose transitions the merge guard re-checks; the guard
// takes those of any other type as free: what they do is what the config says to do when
// they end.
type Guarded interface {
	// Recheck is the guard's verdict on s, a stage of the type on a path to the merge.
	Recheck(g Guard, s *lang.Stage) Verdict
	// StillHolds reports whether s, which the run left as sr says, holds today.
	StillHolds(g Guard, s *lang.Stage, sr *model.StageRun) bool
}

// NextOf is where s goes on by default: target when set, else the next stage in p, else
// the run completes.
func NextOf(p *lang.Pipeline, s *lang.Stage, target string) string {
	if target != "" {
		return target
	}
	for i, x := range p.Stages {
		if x.ID == s.ID && i+1 < len(p.Stages) {
			return p.Stages[i+1].ID
		}
	}
	return lang.TargetComplete
}

// Verdict is what the merge guard finds of a stage on its walk to the merge.
type Verdict int

const (
	Free  Verdict = iota // the guard does not judge it: its transitions are free
	Skips                // its condition decidedly does not hold: the run skips it
	Holds                // it holds: the walk goes on through its pass transitions
	Fails                // it decidedly fails: on through its fail transitions, and it stops the walk
	Stops                // it does not hold: the walk stops there
)

// Judge is the merge guard's verdict on s, a stage that holds today when holds says so:
// Skips when its condition decidedly does not hold, else Holds or Stops.
func Judge(g Guard, s *lang.Stage, holds func(*lang.Stage) bool) Verdict {
	switch {
	case g.Skips(s):
		return Skips
	case holds(s):
		return Holds
	}
	return Stops
}

// NoDeadlines is embedded by the types that arm and handle no deadline of their own.
type NoDeadlines struct{}

// Arm arms nothing.
func (NoDeadlines) Arm(*lang.Stage, *model.StageRun, time.Time) {}

// Deadline handles no kind.
func (NoDeadlines) Deadline(Context, *model.Run, *lang.Stage, model.Deadline) (Decision, bool) {
	return Decision{}, false
}

// Nobody is embedded by the types the kernel moves by itself, with nobody to name.
type Nobody struct{}

// Worker names nobody.
func (Nobody) Worker(*lang.Stage) (kind, name string) { return "", "" }
