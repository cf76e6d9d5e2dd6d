package engine

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// fakeCheck is a condition of the fake gates: it always passes.
type fakeCheck struct{ Name string }

func (c fakeCheck) Evaluate(*model.Facts) model.GateResult {
	return model.GateResult{Check: c.Name, Status: model.GatePass}
}

// fakeGate compiles a fakeCheck, reading the parameter the tests give it.
type fakeGate struct{ name string }

func (g fakeGate) Compile(p *lang.Params) (Check, error) {
	if g.name == "label_present" {
		p.String("label", "")
	}
	return fakeCheck{Name: g.name}, nil
}

// fakeRegistry holds check names with fake gates; engine cannot import gates.
type fakeRegistry struct{}

var fakeNames = []string{"ci_status", "human_approved", "label_present", "no_changes_requested"}

func (fakeRegistry) Lookup(name string) (Gate, bool) {
	for _, n := range fakeNames {
		if n == name {
			return fakeGate{name: n}, true
		}
	}
	return nil, false
}

func (fakeRegistry) Names() []string { return append([]string{}, fakeNames...) }
