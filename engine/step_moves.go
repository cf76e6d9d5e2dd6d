package engine

import "fmt"

// What bounds one run's moves in one evaluation. A run may pass through any number of
// distinct stages in one event (forty gates that all hold complete at once); what can
// really spin is coming back to a stage it already visited in this evaluation without
// waiting anywhere. So each stage may be entered at most revisitLimit times per
// evaluation: one more than the largest max_iterations of a loop rule that leads to it,
// or defaultRevisits when no loop rule bounds it.

// defaultRevisits is how often a stage may be entered in one evaluation when no loop
// rule says how often it may be looped back to.
const defaultRevisits = 3

// revisitLimit is how many times stage id of p may be entered in one evaluation.
func revisitLimit(p *Pipeline, id string) int {
	most := 0
	var visit func(s *Stage)
	consider := func(r *Rule) {
		if r != nil && r.Goto == id && r.MaxIterations > most {
			most = r.MaxIterations
		}
	}
	visit = func(s *Stage) {
		for _, r := range s.Verdicts {
			consider(r)
		}
		consider(s.OnFailRule)
		consider(s.OnAnyReject)
		consider(s.OnCIFailure)
		for _, b := range s.Branches {
			visit(b)
		}
	}
	for _, s := range p.Stages {
		visit(s)
	}
	if most == 0 {
		return defaultRevisits
	}
	return most + 1
}

// moveGuard counts the stages one run enters in one evaluation.
type moveGuard struct {
	p      *Pipeline
	visits map[string]int
}

func newMoveGuard(p *Pipeline, run *Run) *moveGuard {
	return &moveGuard{p: p, visits: map[string]int{run.Stage: 1}}
}

// entered records that run now stands at its current stage again, and says why the
// run must stop when that is once too often; "" when it may go on.
func (g *moveGuard) entered(run *Run) string {
	g.visits[run.Stage]++
	limit := revisitLimit(g.p, run.Stage)
	if g.visits[run.Stage] <= limit {
		return ""
	}
	return fmt.Sprintf("stage %q was entered %d times in one event without waiting anywhere (at most %d); a loop that never waits was stopped",
		run.Stage, g.visits[run.Stage], limit)
}
