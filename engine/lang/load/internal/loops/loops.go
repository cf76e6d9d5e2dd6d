package loops

import "github.com/org/pipeline-action/engine/lang"

// notifyAndWait is the action of a gate's on_fail rule that notifies and keeps waiting.
const notifyAndWait = "notify_and_wait"

// ImmediateEdges returns, for each stage of p, the stages it may hand on to within one
// event without waiting: an action's transitions to other actions (and, withGates, to
// gates), and withGates a gate's on_fail. A gate and its actions are left out when
// withGates holds and the action can change what a gate reads.
func ImmediateEdges(p *lang.Pipeline, index map[string]int, withGates bool) func(int) []int {
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

// StageIndex maps the stage ids of p to their index, the first stage of an id as
// Pipeline.Stage finds it.
func StageIndex(p *lang.Pipeline) map[string]int {
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

// Through returns the stages of a loop through start along next, within start's
// component, or nil.
func Through(start int, next func(int) []int, comp []int) []int {
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

// Components returns the strongly connected component of each of n nodes of the graph
// next describes (Tarjan's algorithm, without recursion), and for each component
// whether it holds a loop: two nodes or more, or one with an edge to itself.
func Components(n int, next func(int) []int) (comp []int, cyclic []bool) {
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
