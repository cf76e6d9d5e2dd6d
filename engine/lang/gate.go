package lang

// Check is a condition as a gate compiled it. The language keeps it without looking
// inside: evaluating it against facts is the evaluator's business, and the evaluator
// knows the interface its gates' checks implement.
type Check any

// Gate compiles the parameters of a condition (`check: <name>` and its other keys).
// It reads them through p, which records type errors and unknown keys with positions.
type Gate interface {
	Compile(p *Params) (Check, error)
}

// GateRegistry finds gates by their check name.
type GateRegistry interface {
	Lookup(name string) (Gate, bool)
	Names() []string // sorted, for did-you-mean and error messages
}
