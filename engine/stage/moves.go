package stage

import "github.com/org/pipeline-action/engine/lang"

// Move is a move of the run a type asks of the kernel besides leaving its stage or
// following a rule.
type Move int

const (
	// MoveNone asks for no move of its own: the Decision's Leave or Rule says what to do.
	MoveNone Move = iota
	// MoveHold keeps the run waiting at the stage, which shows Why and Who may lift it.
	MoveHold
	// MoveEscalate stops the run for a person, saying Why.
	MoveEscalate
	// MoveFail fails the stage for Why (what the stage shows is the type's to set): on to
	// its on_failure, the join of its parallel stage when it is a branch, else the run fails.
	MoveFail
	// MoveAbort fails the run: the stage cannot run as the config says (Why).
	MoveAbort
	// MoveBack sends the run back to the stage the merge guard found no longer holds.
	MoveBack
	// MoveLoop follows the loop of Rule (of RuleKind), whose effects the type asked
	// for; when it does not move the run, the stage is held (Why, Who).
	MoveLoop
	// MoveStop fails the run for Why, the stage's record left as the type set it.
	MoveStop
)

// Hold keeps the run waiting at the stage: why, and who may lift it.
func Hold(why, who string) Decision { return Decision{Move: MoveHold, Why: why, Who: who} }

// Escalate stops the run for a person.
func Escalate(why string) Decision { return Decision{Move: MoveEscalate, Why: why} }

// Fail fails the stage: on to its on_failure, or the run fails.
func Fail(why string) Decision { return Decision{Move: MoveFail, Why: why} }

// Abort fails the run: the stage cannot run as the config says.
func Abort(why string) Decision { return Decision{Move: MoveAbort, Why: why} }

// Back sends the run back where the merge guard said (Actions.GuardMerge).
func Back() Decision { return Decision{Move: MoveBack} }

// Loop follows the loop of rule, else holds the stage (why, who).
func Loop(rule *lang.Rule, kind, why, who string) Decision {
	return Decision{Move: MoveLoop, Rule: rule, RuleKind: kind, Why: why, Who: who}
}

// Stop fails the run for why, the stage's record left as the type set it.
func Stop(why string) Decision { return Decision{Move: MoveStop, Why: why} }
