package gates

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// Expr is the `expr` check, the language's custom gate: an expression over the facts
// (`expr: github.pr.mergeable == true && !github.pr.draft`), compiled at load. It
// passes while the expression is true and waits, showing `message`, while it is false.
// The expression reads the "github" root (engine.FactsEnv) and, at a run's gate, the
// run: `stages.<id>.outputs`, `context`, `variables` (see exprRunCheck).
type Expr struct{}

var _ engine.Gate = Expr{}

// Compile reads `expr`, an expression, which is required, and `message`, a template
// shown while the expression is false.
func (Expr) Compile(p *lang.Params) (engine.Check, error) {
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
			roots := e.Roots()
			return exprRunCheck{exprCheck{expr: e, message: msg}, slices.Contains(roots, "github") || slices.Contains(roots, "shared")}, nil
		}
	}
	return exprCheck{expr: e, message: msg}, nil
}

// exprRunCheck is an expr check that reads the run (`stages.<id>.outputs`, `context`,
// `variables` …) as well as, maybe, the facts. What the run recorded does not change while
// its gate waits, so an expression over the run alone is decided when it is evaluated:
// false, or an error (an output missing), fails the gate — its on_fail applies — instead
// of waiting for ever. One that also reads what can change while it waits — the facts, or
// the subject's shared variables, which other pipelines set — waits while false, as
// exprCheck does.
type exprRunCheck struct {
	exprCheck
	readsFacts bool // or the shared variables
}

var _ engine.RunCheck = exprRunCheck{}

// EvaluateRun runs the expression over env, the run's.
func (c exprRunCheck) EvaluateRun(_ *model.Facts, env lang.Env) model.GateResult {
	res := c.eval(env)
	if !c.readsFacts && res.Status != model.GatePass {
		if res.Status == model.GateError {
			res.Message = fmt.Sprintf("%q cannot be evaluated: %s", c.expr.Src, res.Message)
		}
		res.Status = model.GateFail
	}
	return res
}

// Evaluate without a run: the expression reads the run, so it cannot be decided.
func (c exprRunCheck) Evaluate(*model.Facts) model.GateResult {
	return model.GateResult{Check: exprName, Status: model.GateError,
		Message: fmt.Sprintf("%q reads the run; it is evaluated only at a run's gate", c.expr.Src)}
}

type exprCheck struct {
	expr    *lang.Expr
	message *lang.Template // nil: a sentence naming the expression
}

var _ engine.Check = exprCheck{}

const exprName = "expr"

// NeedsPR reports whether the expression reads the facts (`github`): one over the run
// alone is decided on an issue's run before it has a pull request.
func (c exprCheck) NeedsPR() bool { return slices.Contains(c.expr.Roots(), "github") }

// Evaluate runs the expression over the facts. An expression that fails to run, or
// gives anything but true or false, is an error: the gate fails closed.
func (c exprCheck) Evaluate(f *model.Facts) model.GateResult {
	return c.eval(lang.Env{"github": model.FactsEnv(f)})
}

func (c exprCheck) eval(env lang.Env) model.GateResult {
	res := model.GateResult{Check: exprName}
	ok, err := c.expr.Bool(env)
	switch {
	case err != nil:
		res.Status = model.GateError // fail closed
		res.Message = err.Error()
	case ok:
		res.Status = model.GatePass
		res.Message = fmt.Sprintf("%q holds", c.expr.Src)
	default:
		res.Status = model.GatePending
		res.Message = fmt.Sprintf("%q does not hold yet", c.expr.Src)
		if c.message != nil {
			if m, err := c.message.Render(env); err == nil && m != "" {
				res.Message = m
			}
		}
	}
	return res
}
