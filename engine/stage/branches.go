package stage

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Branches is what a parallel stage asks of the kernel for its branches: each branch is a
// stage of another type, which the kernel moves as the machinery of that type does, and
// whose effects and intents are the kernel's to forget when the branch is cancelled.
type Branches interface {
	// BranchHolds decides the condition of b, a branch of the stage the run stands at, on
	// the run's environment; err when it cannot be decided.
	BranchHolds(b *lang.Stage) (holds bool, why string, err error)
	// MergeAll checks, before par merges any of its merge branches' pull requests, that
	// every one of them can be merged now; stop when the run does not go on to the
	// branches (it waits, or escalated).
	MergeAll(par *lang.Stage) (stop bool)
	// StepBranch moves b, an open branch of the stage the run stands at, once as its type
	// does; false when b's type is none a branch may have.
	StepBranch(b *lang.Stage) bool
	// Forget drops what the evaluation asked for branch b and the run's intents of it:
	// a cancelled branch asks for nothing more.
	Forget(b string)
	// ChildRun is the run called id (the child of a pipeline branch), or nil.
	ChildRun(id string) *model.Run
}

// Joins is what the merge guard tells a type whose stage joins branches, on today's facts.
type Joins interface {
	// JoinHolds reports whether enough branches of par hold for its join.
	JoinHolds(par *lang.Stage) bool
	// BranchesHold reports whether every pipeline branch of par that succeeded still holds.
	BranchesHold(par *lang.Stage) bool
}

// Resuming is implemented by a type whose stage keeps part of its work across a person's
// `/pipeline retry` and `/pipeline unblock`.
type Resuming interface {
	// Retry, after a retry entered s anew, starts again what had not succeeded.
	Retry(c Context, run *model.Run, s *lang.Stage) Decision
	// Unblock, after an unblock let the run escalated at s go on with the same attempt,
	// gives back what the escalation took.
	Unblock(c Context, run *model.Run, s *lang.Stage)
}
