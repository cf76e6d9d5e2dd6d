package validate

import "github.com/org/pipeline-action/engine/lang"

// checkReachable warns about stages that no transition leads to from the first stage
// of their pipeline (nor from the `restart_from` of an invalidate_and_restart
// reaction): they can never run.
func checkReachable(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		if len(p.Stages) == 0 || p.Stages[0] == nil {
			continue
		}
		index := make(map[string]int, len(p.Stages))
		for i, s := range p.Stages {
			if s == nil {
				continue
			}
			if _, dup := index[s.ID]; !dup {
				index[s.ID] = i
			}
		}
		seen := make([]bool, len(p.Stages))
		var queue []int
		reach := func(target string) {
			if i, ok := index[target]; ok && !seen[i] {
				seen[i] = true
				queue = append(queue, i)
			}
		}
		reach(p.Stages[0].ID)
		for _, r := range p.OnEvents {
			if r.Action == lang.ReactInvalidateAndRestart {
				reach(r.RestartFrom)
			}
		}
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			for _, t := range lang.Successors(p, i) {
				reach(t)
			}
		}
		for i, s := range p.Stages {
			if s != nil && !seen[i] {
				f.warnf(s.Pos, "stage %q is unreachable: no transition leads to it from the first stage %q",
					s.ID, p.Stages[0].ID)
			}
		}
	}
	return f.result()
}
