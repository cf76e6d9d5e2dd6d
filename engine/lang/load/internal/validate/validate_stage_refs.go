package validate

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
)

// checkStageRefs reports expressions and templates that name a stage their pipeline does
// not have (`stages.nope.outputs.x`): a run's `stages` holds only its own pipeline's stages
// and branches, so such a name reads nothing on every run — a condition or gate over it
// fails, a template renders it empty — which no run can change.
func checkStageRefs(cfg *lang.Config) (errs, warnings lang.ErrorList) {
	var f findings
	for _, p := range cfg.Pipelines {
		if len(p.StageRefs) == 0 {
			continue
		}
		var known []string
		defined := map[string]bool{}
		eachStage(p, func(s, _ *lang.Stage) {
			known = append(known, s.ID)
			defined[s.ID] = true
		})
		for _, r := range p.StageRefs {
			if f.full() {
				break
			}
			if !defined[r.ID] {
				f.errorf(r.Pos, KindRef, "%s", UnknownName("stage", r.ID,
					fmt.Sprintf("an expression of pipeline %q (stages.%s)", p.Name, r.ID), "stages", known))
			}
		}
	}
	return f.result()
}
