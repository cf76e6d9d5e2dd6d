package validate

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load/internal/loops"
)

// checkActionLoops reports loops of stages that never wait. An action acts at once and
// hands on to the next stage, so a loop made of actions only acts on GitHub without end.
// A gate waits while a check is pending, but its on_fail goes on at once when a check has
// decidedly failed, and a failed check (CI that failed on the head, a change request, an
// agent's rejection) stays failed for the rest of the event: a loop from a gate's on_fail
// through actions back to the gate runs until the evaluator stops it, every time the gate
// fails. A human, agent, delay, webhook, parallel or pipeline stage in the loop breaks it,
// and so does a loop rule with max_iterations; a loop through a gate is also broken by an
// action that can change what made the gate fail (set_variable, set_shared, update_branch).
func checkActionLoops(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		index := loops.StageIndex(p)
		actions := loops.ImmediateEdges(p, index, false)
		reported := map[string]bool{}
		reportLoops(&f, p, actions, reported, func(s *lang.Stage) bool { return s.Type == lang.StageAction },
			"stages %s form a loop of actions that never waits; put a gate or another waiting stage in it")
		reportLoops(&f, p, loops.ImmediateEdges(p, index, true), reported, func(s *lang.Stage) bool { return s.Type == lang.StageGate },
			"stages %s form a loop that never waits: a gate's on_fail goes on at once when a check has failed, "+
				"and the check stays failed in the event; put a waiting stage in it, or loop with max_iterations")
	}
	return f.result()
}

// reportLoops reports, once per stage, a loop along next through each stage start
// selects, with format naming the loop.
func reportLoops(f *findings, p *lang.Pipeline, next func(int) []int, reported map[string]bool, start func(*lang.Stage) bool, format string) {
	// Only a stage in a strongly connected component with a loop can be on one,
	// and a loop through it stays inside its component: the search from each
	// stage is confined to it, so a long chain of actions costs one pass.
	comp, cyclic := loops.Components(len(p.Stages), next)
	for i, s := range p.Stages {
		if f.full() {
			return
		}
		if s == nil || !start(s) || reported[s.ID] || !cyclic[comp[i]] {
			continue
		}
		if path := loops.Through(i, next, comp); path != nil {
			ids := make([]string, len(path))
			for k, j := range path {
				ids[k] = p.Stages[j].ID
				reported[ids[k]] = true
			}
			f.errorf(s.Pos, kindCycle, format, chain(append(ids, ids[0])))
		}
	}
}
