package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// What bounds one run's moves in one evaluation. A run may pass through any number of
// distinct stages in one event (forty gates that all hold complete at once); what can
// really spin is coming back to a stage it already visited in this evaluation without
// waiting anywhere. So each stage may be entered at most revisitLimit times per
// evaluation: one more than the largest max_iterations of a loop rule that leads to it,
// or defaultRevisits when no loop rule bounds it.

// defaultRevisits is how often a stage may be entered in one evaluation when no loop
// rule says how often it may be looped back to.
const DefaultRevisits = 3

// revisitLimit is how many times stage id of p may be entered in one evaluation.
func RevisitLimit(p *lang.Pipeline, id string) int {
	most := 0
	var visit func(s *lang.Stage)
	consider := func(r *lang.Rule) {
		if r != nil && r.Goto == id && r.MaxIterations > most {
			most = r.MaxIterations
		}
	}
	visit = func(s *lang.Stage) {
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
		return DefaultRevisits
	}
	return most + 1
}

// moveGuard counts the stages one run enters in one event: in Step and in the Settle
// rounds after it (Input.Visits carries the counts from one to the next).
type moveGuard struct {
	e      *Eval
	p      *lang.Pipeline
	run    *model.Run
	visits map[string]int // by visitKey
}

func (e *Eval) NewMoveGuard(p *lang.Pipeline, run *model.Run) *moveGuard {
	if e.Visits == nil {
		e.Visits = map[string]int{}
	}
	if k := visitKey(run); e.Visits[k] == 0 {
		e.Visits[k] = 1 // the stage the run stands at when this event reaches it
	}
	return &moveGuard{e: e, p: p, run: run, visits: e.Visits}
}

func visitKey(run *model.Run) string { return run.ID + "\x00" + run.Stage }

// LoopedBounded notes that run just took an iteration of a loop rule with max_iterations:
// the config bounds that loop and its `then` ends it, so the stages entered before it
// count afresh — the guard stops only what the config leaves unbounded.
func (e *Eval) LoopedBounded(run *model.Run) {
	prefix := run.ID + "\x00"
	for k := range e.Visits {
		if strings.HasPrefix(k, prefix) {
			delete(e.Visits, k)
		}
	}
}

// Entered records that run now stands at its current stage again, and says why the
// run must stop when that is once too often; "" when it may go on.
func (g *moveGuard) Entered(run *model.Run) string {
	k := visitKey(run)
	g.visits[k]++
	limit := g.e.revisitLimit(g.p, run.Stage)
	if g.visits[k] <= limit {
		return ""
	}
	return fmt.Sprintf("stage %q was entered %d times in one event without waiting anywhere (at most %d); a loop that never waits was stopped",
		run.Stage, g.visits[k], limit)
}

func CopyVisits(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
