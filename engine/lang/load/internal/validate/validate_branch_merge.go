package validate

import "github.com/org/pipeline-action/engine/lang"

// checkBranchMerges reports a pipeline branch of a parallel stage whose sub-pipeline — or a
// sub-pipeline below it — has a merge_pr stage: a merge belongs after the join, behind the
// gates the merge guard checks, and the guard never makes one inside a branch (its sibling
// branches are not joined yet), so such a merge would wait forever.
func checkBranchMerges(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		eachStage(p, func(s, parent *lang.Stage) {
			if parent == nil || s.Type != lang.StagePipeline || f.full() {
				return
			}
			if via, merge := mergeBelow(cfg, s.Pipeline, map[string]bool{}); merge != nil {
				f.errorf(s.PosOf("pipeline"), KindValue, "branch %q of stage %q runs pipeline %q, which merges (stage %q of pipeline %q at %s): a merge belongs after the join, not inside a branch",
					s.ID, parent.ID, s.Pipeline, merge.ID, via, merge.Pos)
			}
		})
	}
	return f.result()
}

// mergeBelow returns the first merge_pr stage of pipeline name or of a sub-pipeline it
// runs, and the pipeline it is in; nil when there is none (or name is not a pipeline).
func mergeBelow(cfg *lang.Config, name string, seen map[string]bool) (string, *lang.Stage) {
	p := cfg.Pipeline(name)
	if p == nil || seen[name] {
		return "", nil
	}
	seen[name] = true
	var via string
	var found *lang.Stage
	eachStage(p, func(s, _ *lang.Stage) {
		switch {
		case found != nil:
		case s.Type == lang.StageAction && s.Action == lang.ActionMergePR:
			via, found = name, s
		case s.Type == lang.StagePipeline:
			via, found = mergeBelow(cfg, s.Pipeline, seen)
		}
	})
	return via, found
}
