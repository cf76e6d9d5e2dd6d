package gates

import "github.com/org/pipeline-action/engine"

// unsupported is the result of a check that loads and validates but cannot be evaluated
// yet. It fails closed: a run that reaches it must not advance.
func unsupported(check string, u engine.Unsupported) engine.GateResult {
	return engine.GateResult{
		Check:   check,
		Status:  engine.GateError, // fail closed
		Message: "not supported yet: " + u.Unsupported(),
	}
}
