package engine

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Check evaluates one compiled condition against facts. Implementations are pure.
type Check interface {
	Evaluate(f *model.Facts) model.GateResult
}

// RunCheck is implemented by checks that read the run as well as the facts (an `expr`
// over `stages.*` or `context.*`): the engine evaluates them with the env of the run
// whose gate it evaluates (its context, the stages' outputs and verdicts, the facts).
type RunCheck interface {
	EvaluateRun(f *model.Facts, env lang.Env) model.GateResult
}

// PRFreeCheck is implemented by checks that can tell whether they read a pull request: an
// `expr` over the run alone reads none. A check that does not implement it reads one. An
// issue's run that has no pull request yet evaluates a gate whose every check reads none
// on the issue, rather than waiting for a pull request the gate does not look at.
type PRFreeCheck interface {
	NeedsPR() bool
}

// Gate compiles the parameters of a condition (`check: <name>` and its other keys).
// It reads them through p, which records type errors and unknown keys with positions.
type Gate interface {
	Compile(p *lang.Params) (Check, error)
}

// GateRegistry finds gates by their check name.
type GateRegistry interface {
	Lookup(name string) (Gate, bool)
	Names() []string // sorted, for did-you-mean and error messages
}
