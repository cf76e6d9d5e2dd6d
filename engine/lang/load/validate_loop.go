package load

import "github.com/org/pipeline-action/engine/lang"

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
		index := stageIndex(p)
		actions := immediateEdges(p, index, false)
		reported := map[string]bool{}
		reportLoops(&f, p, actions, reported, func(s *lang.Stage) bool { return s.Type == lang.StageAction },
			"stages %s form a loop of actions that never waits; put a gate or another waiting stage in it")
		reportLoops(&f, p, immediateEdges(p, index, true), reported, func(s *lang.Stage) bool { return s.Type == lang.StageGate },
			"stages %s form a loop that never waits: a gate's on_fail goes on at once when a check has failed, "+
				"and the check stays failed in the event; put a waiting stage in it, or loop with max_iterations")
	}
	return f.result()
}

// immediateEdges returns, for each stage of p, the stages it may hand on to within one
// event without waiting: an action's transitions to other actions (and, withGates, to
// gates), and withGates a gate's on_fail. A gate and its actions are left out when
// withGates holds and the action can change what a gate reads.
func immediateEdges(p *lang.Pipeline, index map[string]int, withGates bool) func(int) []int {
	node := func(s *lang.Stage) bool {
		switch {
		case s == nil:
			return false
		case s.Type == lang.StageAction:
			return !withGates || !changesGateFacts(s.Action)
		default:
			return withGates && s.Type == lang.StageGate
		}
	}
	return func(i int) []int {
		s := p.Stages[i]
		if !node(s) {
			return nil
		}
		var out []int
		for _, t := range immediateTargets(s) {
			if j, ok := index[t]; ok && node(p.Stages[j]) {
				out = append(out, j)
			}
		}
		return out
	}
}

// immediateTargets are the targets s goes to at once: an action's on_success and
// on_failure, and the targets of its rules that no max_iterations bounds; a gate's
// on_fail, likewise. A rule that notifies and waits goes nowhere.
func immediateTargets(s *lang.Stage) []string {
	var out []string
	rule := func(r *lang.Rule) {
		if r == nil || r.Action == notifyAndWait {
			return
		}
		if r.MaxIterations == 0 {
			out = append(out, r.Goto)
		}
		out = append(out, r.Then)
	}
	if s.Type == lang.StageGate {
		out = append(out, s.OnFail)
		rule(s.OnFailRule)
		return out
	}
	out = append(out, s.OnSuccess, s.OnFailure)
	rule(s.OnConflict)
	rule(s.OnCIFailure)
	return out
}

// changesGateFacts reports whether action a can change what made a gate fail: the
// variables an expr check reads, or the head its checks ran on.
func changesGateFacts(a string) bool {
	return a == lang.ActionSetVariable || a == lang.ActionSetShared || a == lang.ActionUpdateBranch
}

// reportLoops reports, once per stage, a loop along next through each stage start
// selects, with format naming the loop.
func reportLoops(f *findings, p *lang.Pipeline, next func(int) []int, reported map[string]bool, start func(*lang.Stage) bool, format string) {
	// Only a stage in a strongly connected component with a loop can be on one,
	// and a loop through it stays inside its component: the search from each
	// stage is confined to it, so a long chain of actions costs one pass.
	comp, cyclic := components(len(p.Stages), next)
	for i, s := range p.Stages {
		if f.full() {
			return
		}
		if s == nil || !start(s) || reported[s.ID] || !cyclic[comp[i]] {
			continue
		}
		if path := actionLoop(i, next, comp); path != nil {
			ids := make([]string, len(path))
			for k, j := range path {
				ids[k] = p.Stages[j].ID
				reported[ids[k]] = true
			}
			f.errorf(s.Pos, kindCycle, format, chain(append(ids, ids[0])))
		}
	}
}

// stageIndex maps the stage ids of p to their index, the first stage of an id as
// Pipeline.Stage finds it.
func stageIndex(p *lang.Pipeline) map[string]int {
	index := make(map[string]int, len(p.Stages))
	for i, s := range p.Stages {
		if s == nil {
			continue
		}
		if _, dup := index[s.ID]; !dup {
			index[s.ID] = i
		}
	}
	return index
}

// actionLoop returns the stages of a loop through start along next, within start's
// component, or nil.
func actionLoop(start int, next func(int) []int, comp []int) []int {
	var path []int
	on := map[int]bool{}
	var walk func(i int) []int
	walk = func(i int) []int {
		if i == start && len(path) > 0 {
			return append([]int{}, path...)
		}
		if on[i] || comp[i] != comp[start] {
			return nil
		}
		on[i] = true
		path = append(path, i)
		for _, n := range next(i) {
			if found := walk(n); found != nil {
				return found
			}
		}
		path = path[:len(path)-1]
		return nil
	}
	return walk(start)
}

// components returns the strongly connected component of each of n nodes of the graph
// next describes (Tarjan's algorithm, without recursion), and for each component
// whether it holds a loop: two nodes or more, or one with an edge to itself.
func components(n int, next func(int) []int) (comp []int, cyclic []bool) {
	comp = make([]int, n)
	index := make([]int, n) // 0: not visited; else the visit order + 1
	low := make([]int, n)
	onStack := make([]bool, n)
	var stack []int
	type frame struct {
		v     int
		succ  []int
		child int
	}
	counter := 0
	for root := range n {
		if index[root] != 0 {
			continue
		}
		counter++
		index[root], low[root] = counter, counter
		stack = append(stack, root)
		onStack[root] = true
		calls := []frame{{v: root, succ: next(root)}}
		for len(calls) > 0 {
			top := &calls[len(calls)-1]
			if top.child < len(top.succ) {
				w := top.succ[top.child]
				top.child++
				switch {
				case index[w] == 0:
					counter++
					index[w], low[w] = counter, counter
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{v: w, succ: next(w)})
				case onStack[w]:
					low[top.v] = min(low[top.v], index[w])
				}
				continue
			}
			v := top.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				parent := calls[len(calls)-1].v
				low[parent] = min(low[parent], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			c := len(cyclic)
			size := 0
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = c
				size++
				if w == v {
					break
				}
			}
			loop := size > 1
			for _, w := range next(v) {
				loop = loop || w == v
			}
			cyclic = append(cyclic, loop)
		}
	}
	return comp, cyclic
}
