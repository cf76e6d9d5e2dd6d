package stage

import (
	"github.com/org/pipeline-action/engine/authority"
	"github.com/org/pipeline-action/engine/model"
)

// People is what a type that waits for people reads of the evaluation: the rules of whose
// action counts, and whether GitHub just refused the run something.
type People interface {
	// Authority is the rules of whose action counts, on the facts read now.
	Authority() *authority.Rules
	// Refused reports whether GitHub refused an effect of the run in the outcomes being
	// settled: the run asks for nothing more until the next event.
	Refused() bool
}

// Witnesses is what the merge guard tells a type that counts people of the run it walks:
// the rules of whose action counts, on today's facts, and that run.
type Witnesses interface {
	// Authority is the rules of whose action counts, on today's facts.
	Authority() *authority.Rules
	// Run is the run the guard walks.
	Run() *model.Run
}
