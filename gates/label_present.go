package gates

import (
	"fmt"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// LabelPresent is the `label_present` check: the PR carries `label`.
type LabelPresent struct{}

var _ engine.Gate = LabelPresent{}

// Compile reads `label`, a non-empty string, which is required.
func (LabelPresent) Compile(p *lang.Params) (engine.Check, error) {
	if !p.Has("label") {
		p.Errorf("label", "missing required key %q for check %q", "label", labelPresentName)
		return nil, nil
	}
	before := len(p.Errors())
	label := p.String("label", "")
	if len(p.Errors()) > before {
		return nil, nil // not a string; Params said so
	}
	if label == "" {
		p.Errorf("label", "%q of check %q must not be empty", "label", labelPresentName)
		return nil, nil
	}
	return withPR(p, labelPresent{label: label}), nil
}

type labelPresent struct {
	label string
}

var _ engine.Check = labelPresent{}

const labelPresentName = "label_present"

// Evaluate waits until the label is on the PR.
func (c labelPresent) Evaluate(f *engine.Facts) engine.GateResult {
	if f == nil || f.PR == nil {
		return noPR(labelPresentName) // fail closed
	}
	if f.PR.HasLabel(c.label) {
		return engine.GateResult{
			Check:   labelPresentName,
			Status:  engine.GatePass,
			Message: fmt.Sprintf("label %q is present", c.label),
		}
	}
	return engine.GateResult{
		Check:   labelPresentName,
		Status:  engine.GatePending,
		Message: fmt.Sprintf("needs label %q", c.label),
		Who:     "someone who can label PRs",
	}
}

// HeadIndependent: a label stays on the PR when its head moves.
func (labelPresent) HeadIndependent() bool { return true }
