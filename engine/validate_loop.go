package engine

import (
	"fmt"
	"strings"
)

// checkActionLoops reports loops made of action stages only: each acts at once and
// hands on to the next, so such a loop never waits for anything and would act on
// GitHub without end. A gate, human, agent or delay stage in the loop breaks it.
func checkActionLoops(cfg *Config) (errs, warnings ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		next := func(s *Stage) []string {
			var out []string
			for _, t := range []string{s.OnSuccess, s.OnFailure} {
				if n := p.Stage(t); n != nil && n.Type == StageAction {
					out = append(out, t)
				}
			}
			return out
		}
		reported := map[string]bool{}
		for _, start := range p.Stages {
			if start.Type != StageAction || reported[start.ID] {
				continue
			}
			if path := actionLoop(start.ID, next, p); path != nil {
				for _, id := range path {
					reported[id] = true
				}
				f.errorf(start.Pos, kindCycle, "stages %s form a loop of actions that never waits; put a gate or another waiting stage in it",
					quoteChain(append(path, path[0])))
			}
		}
	}
	return f.result()
}

// actionLoop returns the stages of a loop through start along next, or nil.
func actionLoop(start string, next func(*Stage) []string, p *Pipeline) []string {
	var path []string
	on := map[string]bool{}
	var walk func(id string) []string
	walk = func(id string) []string {
		if id == start && len(path) > 0 {
			return append([]string{}, path...)
		}
		if on[id] {
			return nil
		}
		on[id] = true
		path = append(path, id)
		for _, n := range next(p.Stage(id)) {
			if found := walk(n); found != nil {
				return found
			}
		}
		path = path[:len(path)-1]
		return nil
	}
	return walk(start)
}

func quoteChain(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, " -> ")
}
