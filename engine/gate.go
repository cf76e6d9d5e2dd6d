package engine

import "github.com/org/pipeline-action/engine/lang"

// Check evaluates one compiled condition against facts. Implementations are pure.
type Check interface {
	Evaluate(f *Facts) GateResult
}

// RunCheck is implemented by checks that read the run as well as the facts (an `expr`
// over `stages.*` or `context.*`): the engine evaluates them with the env of the run
// whose gate it evaluates (its context, the stages' outputs and verdicts, the facts).
type RunCheck interface {
	EvaluateRun(f *Facts, env lang.Env) GateResult
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
