package core

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// StageAt finds the run standing at attempt of stage (a stage of its pipeline, or a branch
// of the parallel stage it stands at), or says why none does.
func (e *Eval) StageAt(runID, stageID string, attempt int) (*model.Run, *lang.Pipeline, *lang.Stage, string) {
	var run *model.Run
	for _, r := range e.St.Runs {
		if r.ID == runID {
			run = r
		}
	}
	if run == nil {
		for _, past := range e.St.Past {
			if past.ID == runID {
				return nil, nil, nil, fmt.Sprintf("the run is %s", past.Status)
			}
		}
		return nil, nil, nil, "no such run on " + e.Subject()
	}
	if run.Status.Final() {
		return nil, nil, nil, fmt.Sprintf("the run is %s", run.Status)
	}
	p := e.Cfg.PipelineFor(run)
	if p == nil {
		return nil, nil, nil, fmt.Sprintf("pipeline %q is no longer in the config", run.Pipeline)
	}
	if !run.At(stageID) || run.Stage != stageID && BranchOf(p.Stage(run.Stage), stageID) == nil {
		return nil, nil, nil, notAt(run, stageID)
	}
	stage := StageOrBranch(p, stageID)
	if stage == nil {
		return nil, nil, nil, fmt.Sprintf("%q is not an agent stage", stageID)
	}
	if sr := run.Stages[stageID]; sr == nil || sr.Attempt != attempt {
		cur := 0
		if sr != nil {
			cur = sr.Attempt
		}
		return nil, nil, nil, fmt.Sprintf("the stage is at attempt %d, not %d", cur, attempt)
	}
	return run, p, stage, ""
}
