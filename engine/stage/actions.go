package stage

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Actions is what an action stage asks of the kernel: the plans of actions the kernel's
// lists and notifications share, the merge guard, GitHub's mergeability polls, and the
// notifications and labels of a stage's rules.
type Actions interface {
	// PlanAction plans eff, the action of s (other than merge_pr, add_label, remove_label
	// and a comment without templates), for the run, rendering its templates.
	PlanAction(s *lang.Stage, eff model.Effect) Plan
	// GuardMerge is the merge guard before the merge of s: why the merge may not go on,
	// or "", and back when the run goes back to a stage that no longer holds (Back).
	GuardMerge(s *lang.Stage) (why string, back bool)
	// MergeabilityPoll keeps sr waiting for GitHub's mergeability of what: it arms the
	// next poll, or says why the run escalates once the last one is spent.
	MergeabilityPoll(sr *model.StageRun, what string) (escalate string)
	// RuleEffects asks for the notification and labels of rule, of kind, of s, once per
	// stage entry and head commit.
	RuleEffects(s *lang.Stage, rule *lang.Rule, kind string)
	// Settling reports whether the evaluation applies the outcomes of effects.
	Settling() bool
	// OtherRepo is the repository of the pull request read, when it is not the
	// subject's own ("" otherwise).
	OtherRepo() string
	// IssueRun reports whether the run's subject is an issue.
	IssueRun() bool
	// DoneWhy is the history's reason for s, an action stage, done.
	DoneWhy(s *lang.Stage) string
}

// Plan is an action planned: the effect to ask for, written ahead when WriteAhead says
// so, or Done (nothing to do, and why), or Err (it cannot be done, and why).
type Plan struct {
	Eff        model.Effect
	WriteAhead bool
	Done       string
	Err        string
}

// Settler is implemented by a type whose stages' effects the kernel finds the outcomes of
// (of a stage, or of a branch of a parallel stage), drops the intent of and records done
// or refused; the type decides what the outcome means for its stage.
type Settler interface {
	// Settled decides of o, the outcome of the effect s asked for.
	Settled(c Context, run *model.Run, s *lang.Stage, o model.Outcome) Decision
}

// Branching is implemented by a type whose stages may be branches of a parallel stage.
type Branching interface {
	// Branch moves b, an open branch of the parallel stage run stands at, once.
	Branch(c Context, run *model.Run, b *lang.Stage) Decision
}
