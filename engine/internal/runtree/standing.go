package runtree

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// StandingAt finds the run standing at attempt of stage (a stage of its pipeline, or a branch
// of the parallel stage it stands at), or says why none does.
func (t Tree) StandingAt(past []model.PastRun, subject, runID, stageID string, attempt int) (*model.Run, *lang.Pipeline, *lang.Stage, string) {
	var run *model.Run
	for _, r := range t.Runs {
		if r.ID == runID {
			run = r
		}
	}
	if run == nil {
		for _, pr := range past {
			if pr.ID == runID {
				return nil, nil, nil, fmt.Sprintf("the run is %s", pr.Status)
			}
		}
		return nil, nil, nil, "no such run on " + subject
	}
	if run.Status.Final() {
		return nil, nil, nil, fmt.Sprintf("the run is %s", run.Status)
	}
	p := t.Cfg.PipelineFor(run)
	if p == nil {
		return nil, nil, nil, fmt.Sprintf("pipeline %q is no longer in the config", run.Pipeline)
	}
	if !run.At(stageID) || run.Stage != stageID && core.BranchOf(p.Stage(run.Stage), stageID) == nil {
		return nil, nil, nil, core.NotAt(run, stageID)
	}
	stage := core.StageOrBranch(p, stageID)
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
