package validate

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load/internal/loops"
)

// subRef is one `type: pipeline` stage or branch: pipeline from runs pipeline to
// (indexes into Config.Pipelines).
type subRef struct {
	from, to int
	stage    *lang.Stage
}

// subPipelines returns, for each pipeline of cfg, the sub-pipelines its stages and
// branches run, in file order. A reference to an unknown pipeline is reported to f
// (when f is non-nil) and left out.
func subPipelines(cfg *lang.Config, f *findings) [][]subRef {
	index := make(map[string]int, len(cfg.Pipelines))
	for i, p := range cfg.Pipelines {
		if _, dup := index[p.Name]; !dup {
			index[p.Name] = i
		}
	}
	names := pipelineNames(cfg)
	out := make([][]subRef, len(cfg.Pipelines))
	for i, p := range cfg.Pipelines {
		eachStage(p, func(s, parent *lang.Stage) {
			if s.Pipeline == "" {
				return
			}
			j, ok := index[s.Pipeline]
			if !ok {
				if f != nil && !f.full() {
					f.errorf(s.PosOf("pipeline"), KindRef, "%s", UnknownName("sub-pipeline", s.Pipeline, inStage("", s, parent), "pipelines", names))
				}
				return
			}
			out[i] = append(out[i], subRef{from: i, to: j, stage: s})
		})
	}
	return out
}

// checkSubPipelines reports `type: pipeline` stages and branches that name an unknown
// pipeline, sub-pipeline cycles (at the stage that closes each, with the whole path),
// and nesting deeper than settings.max_nesting (at the stage that goes one level too
// deep, with the chain from a top pipeline).
func checkSubPipelines(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	out := subPipelines(cfg, &f)
	subCycles(cfg, out, &f)
	subNesting(cfg, out, &f)
	return f.result()
}

// subCycles finds cycles by breadth-first search from each pipeline r through the
// pipelines after it in file order, so that each cycle is found once, from its first
// pipeline, by its shortest path; every stage that runs r from a pipeline so reached
// closes a cycle and is reported there. A cycle through r stays inside r's strongly
// connected component, so the search starts only from pipelines in a component with a
// cycle and stays inside it: a long chain of sub-pipelines costs one pass.
func subCycles(cfg *lang.Config, out [][]subRef, f *findings) {
	n := len(cfg.Pipelines)
	comp, cyclic := loops.Components(n, func(i int) []int {
		to := make([]int, len(out[i]))
		for k, e := range out[i] {
			to[k] = e.to
		}
		return to
	})
	parent := make([]int, n)
	seen := make([]int, n) // r+1 once the search from r reached the pipeline
	queue := make([]int, 0, n)
	for r := range cfg.Pipelines {
		if !cyclic[comp[r]] {
			continue
		}
		parent[r], seen[r] = -1, r+1
		queue = append(queue[:0], r)
		for head := 0; head < len(queue) && !f.full(); head++ {
			q := queue[head]
			for _, e := range out[q] {
				if e.to == r {
					path := append(pathFrom(cfg, parent, q), cfg.Pipelines[r].Name)
					f.errorf(e.stage.PosOf("pipeline"), kindCycle, "sub-pipeline cycle: %s", chain(path))
					continue
				}
				if seen[e.to] == r+1 || e.to < r || comp[e.to] != comp[r] {
					continue
				}
				parent[e.to], seen[e.to] = q, r+1
				queue = append(queue, e.to)
			}
		}
	}
}

// pathFrom returns the names of the pipelines from the search's root to q.
func pathFrom(cfg *lang.Config, parent []int, q int) []string {
	var rev []string
	for i := q; i >= 0; i = parent[i] {
		rev = append(rev, cfg.Pipelines[i].Name)
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

func subNesting(cfg *lang.Config, out [][]subRef, f *findings) {
	limit := cfg.Settings.MaxNesting
	if limit <= 0 {
		limit = lang.DefaultMaxNesting
	}
	n := len(cfg.Pipelines)
	incoming := make([]bool, n)
	for _, es := range out {
		for _, e := range es {
			if e.from != e.to {
				incoming[e.to] = true
			}
		}
	}
	// Depth-first from the top pipelines: post-order gives a topological order of
	// the edges that are not back edges.
	const (
		unseen = iota
		onStack
		done
	)
	state := make([]int, n)
	back := map[*lang.Stage]bool{}
	var order []int
	var visit func(i int)
	visit = func(i int) {
		state[i] = onStack
		for _, e := range out[i] {
			switch state[e.to] {
			case unseen:
				visit(e.to)
			case onStack:
				back[e.stage] = true
			}
		}
		state[i] = done
		order = append(order, i)
	}
	for i := range n {
		if !incoming[i] {
			visit(i)
		}
	}
	level := make([]int, n)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	for k := len(order) - 1; k >= 0; k-- {
		q := order[k]
		for _, e := range out[q] {
			if !back[e.stage] && level[q]+1 > level[e.to] {
				level[e.to], parent[e.to] = level[q]+1, q
			}
		}
	}
	for k := len(order) - 1; k >= 0; k-- {
		q := order[k]
		if level[q] != limit {
			continue
		}
		for _, e := range out[q] {
			if back[e.stage] {
				continue
			}
			var path []string
			for i := q; i >= 0; i = parent[i] {
				path = append([]string{cfg.Pipelines[i].Name}, path...)
			}
			path = append(path, cfg.Pipelines[e.to].Name)
			f.errorf(e.stage.PosOf("pipeline"), kindNesting,
				"sub-pipelines nest %d levels deep, more than settings.max_nesting (%d): %s",
				limit+1, limit, chain(path))
		}
	}
}

// checkUnusedPipelines warns about a pipeline without a trigger that no other
// pipeline runs as a sub-pipeline: nothing can ever start it.
func checkUnusedPipelines(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	used := make([]bool, len(cfg.Pipelines))
	for _, es := range subPipelines(cfg, nil) {
		for _, e := range es {
			if e.from != e.to {
				used[e.to] = true
			}
		}
	}
	for i, p := range cfg.Pipelines {
		if !p.HasTrigger && !used[i] {
			f.warnf(p.Pos, "pipeline %q never runs: it has no %q and no %q stage runs it as a sub-pipeline",
				p.Name, "trigger", "type: pipeline")
		}
	}
	return f.result()
}
