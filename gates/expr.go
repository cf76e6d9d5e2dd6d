package gates

import (
	"fmt"

	"github.com/org/pipeline-action/engine"
)

// Expr is the `expr` check, the language's custom gate: an expression over the facts
// (`expr: github.pr.mergeable == true && !github.pr.draft`), compiled at load. It
// passes while the expression is true and waits, showing `message`, while it is false.
// The expression reads the "github" root (engine.FactsEnv); the other roots are empty.
type Expr struct{}

var _ engine.Gate = Expr{}

// Compile reads `expr`, an expression, which is required, and `message`, a template
// shown while the expression is false.
func (Expr) Compile(p *engine.Params) (engine.Check, error) {
	if !p.Has("expr") {
		p.Errorf("expr", "missing required key %q for check %q", "expr", exprName)
		p.Template("message")
		return nil, nil
	}
	e := p.Expr("expr")
	msg := p.Template("message")
	if e == nil {
		return nil, nil // the error is recorded
	}
	for _, r := range e.Roots() {
		if r != "github" {
			// The check sees the facts only: an expression over the run's stages or
			// context would read nothing and wait forever. Stop loudly instead.
			return exprOverRun{exprCheck{expr: e, message: msg}, r}, nil
		}
	}
	return exprCheck{expr: e, message: msg}, nil
}

// exprOverRun is an expr check that reads a root other than the facts (`stages`,
// `context`, …): it loads, and a run that reaches it stops as not supported yet.
type exprOverRun struct {
	exprCheck
	root string
}

// Unsupported names what is missing.
func (c exprOverRun) Unsupported() string {
	return fmt.Sprintf("check %q over %q (a gate's expression reads only \"github\" today)", exprName, c.root+".*")
}

type exprCheck struct {
	expr    *engine.Expr
	message *engine.Template // nil: a sentence naming the expression
}

var _ engine.Check = exprCheck{}

const exprName = "expr"

// Evaluate runs the expression over the facts. An expression that fails to run, or
// gives anything but true or false, is an error: the gate fails closed.
func (c exprCheck) Evaluate(f *engine.Facts) engine.GateResult {
	env := engine.Env{"github": engine.FactsEnv(f)}
	res := engine.GateResult{Check: exprName}
	ok, err := c.expr.Bool(env)
	switch {
	case err != nil:
		res.Status = engine.GateError // fail closed
		res.Message = err.Error()
	case ok:
		res.Status = engine.GatePass
		res.Message = fmt.Sprintf("%q holds", c.expr.Src)
	default:
		res.Status = engine.GatePending
		res.Message = fmt.Sprintf("%q does not hold yet", c.expr.Src)
		if c.message != nil {
			if m, err := c.message.Render(env); err == nil && m != "" {
				res.Message = m
			}
		}
	}
	return res
}
