package load

import "github.com/org/pipeline-action/engine/lang"

// checkActionLoops reports loops made of action stages only: each acts at once and
// hands on to the next, so such a loop never waits for anything and would act on
// GitHub without end. A gate, human, agent or delay stage in the loop breaks it.
func checkActionLoops(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		index := stageIndex(p)
		next := func(i int) []int {
			s := p.Stages[i]
			if s == nil || s.Type != lang.StageAction {
				return nil
			}
			var out []int
			for _, t := range []string{s.OnSuccess, s.OnFailure} {
				if j, ok := index[t]; ok && p.Stages[j].Type == lang.StageAction {
					out = append(out, j)
				}
			}
			return out
		}
		// Only a stage in a strongly connected component with a loop can be on one,
		// and a loop through it stays inside its component: the search from each
		// stage is confined to it, so a long chain of actions costs one pass.
		comp, cyclic := components(len(p.Stages), next)
		reported := map[string]bool{}
		for i, start := range p.Stages {
			if f.full() {
				break
			}
			if start == nil || start.Type != lang.StageAction || reported[start.ID] || !cyclic[comp[i]] {
				continue
			}
			if path := actionLoop(i, next, comp); path != nil {
				ids := make([]string, len(path))
				for k, j := range path {
					ids[k] = p.Stages[j].ID
					reported[ids[k]] = true
				}
				f.errorf(start.Pos, kindCycle, "stages %s form a loop of actions that never waits; put a gate or another waiting stage in it",
					chain(append(ids, ids[0])))
			}
		}
	}
	return f.result()
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
