package guardwalk

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// GuardEdges returns the targets stage i of p may move to. For a gate: pass is the
// target of its pass transition, fail those of its fail transitions; for a human stage, a
// pipeline stage and a parallel stage: pass is the target of on_complete (a sub-pipeline's
// end, a join met, are judged as a gate's pass is). free holds every other target (for any
// other stage, all of them).
func GuardEdges(p *lang.Pipeline, i int) (free, pass, fail []string) {
	s := p.Stages[i]
	switch s.Type {
	case lang.StageGate, lang.StageHuman, lang.StagePipeline, lang.StageParallel:
	default:
		return lang.Successors(p, i), nil, nil
	}
	next := lang.TargetComplete
	if i+1 < len(p.Stages) && p.Stages[i+1] != nil {
		next = p.Stages[i+1].ID
	}
	pass = []string{next}
	if s.OnPass != "" {
		pass = []string{s.OnPass}
	}
	if s.Type != lang.StageGate && s.OnComplete != "" {
		pass = []string{s.OnComplete}
	}
	if s.OnFail != "" {
		fail = append(fail, s.OnFail)
	}
	if r := s.OnFailRule; r != nil {
		for _, t := range []string{r.Goto, r.Then} {
			if t != "" {
				fail = append(fail, t)
			}
		}
	}
	taken := append(append([]string{}, pass...), fail...)
	if s.Condition != nil && s.SkipTo != "" {
		// The skip edge is the guard's to decide, from today's facts (GuardSkips).
		taken = append(taken, s.SkipTo)
	}
	all := lang.Transitions(s)
	for _, b := range s.Branches {
		if b != nil {
			all = append(all, lang.Transitions(b)...) // a branch's own rules: free, as an agent's
		}
	}
	for _, t := range all {
		if k := indexOf(taken, t); k >= 0 {
			taken = append(taken[:k], taken[k+1:]...) // written out above
			continue
		}
		free = append(free, t)
	}
	return free, pass, fail
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// HeadDependent reports whether a gate's verdict may change when the head moves.
func HeadDependent(s *lang.Stage) bool {
	for _, c := range s.Conditions {
		if h, ok := c.Eval.(model.HeadIndependent); !ok || !h.HeadIndependent() {
			return true
		}
	}
	for _, group := range s.AnyOf {
		for _, c := range group {
			if h, ok := c.Eval.(model.HeadIndependent); !ok || !h.HeadIndependent() {
				return true
			}
		}
	}
	return false
}
