package stage

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Children is what a pipeline stage asks of the kernel for the child run it starts: the
// kernel owns the tree of runs (it starts, advances and cancels children); the stage only
// follows where its child stands.
type Children interface {
	// Child starts — once per attempt of s, a pipeline stage or a pipeline branch of the
	// run's stage — and advances the child run of s, and returns it as it stands after
	// this evaluation; nil, why, and whether the run must fail (fatal: the nesting limit,
	// an unknown pipeline) rather than the stage's on_error apply, when none could start.
	Child(s *lang.Stage) (child *model.Run, why string, fatal bool)
	// EndChild cancels child, whose escalation its parent's stage takes over, saying why.
	EndChild(child *model.Run, why string)
}

// Subs is what the merge guard tells of sub-pipelines on today's facts.
type Subs interface {
	// SubHolds reports whether the sub-pipeline of s, a pipeline stage or branch, holds to
	// its end.
	SubHolds(s *lang.Stage) bool
}
