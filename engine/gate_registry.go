package engine

import "github.com/org/pipeline-action/engine/lang"

// The loader compiles conditions with a lang.GateRegistry, whose checks it keeps without
// looking inside; the evaluator's gates compile Checks, which it evaluates. langGates
// hands the evaluator's registry to the loader, so every condition of a config loaded
// through engine holds a Check.

// langGates is r as the loader reads it; nil when r is nil.
func langGates(r GateRegistry) lang.GateRegistry {
	if r == nil {
		return nil
	}
	return gateRegistry{r}
}

type gateRegistry struct{ r GateRegistry }

func (g gateRegistry) Lookup(name string) (lang.Gate, bool) {
	gate, ok := g.r.Lookup(name)
	if !ok {
		return nil, false
	}
	return compiler{gate}, true
}

func (g gateRegistry) Names() []string { return g.r.Names() }

type compiler struct{ g Gate }

func (c compiler) Compile(p *lang.Params) (lang.Check, error) {
	check, err := c.g.Compile(p)
	if check == nil {
		return nil, err
	}
	return check, err
}
