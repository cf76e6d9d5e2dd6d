package core

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/agent"
)

// FindEffect is the live run, and its stage or branch, whose current attempt asked for the
// effect of key: where an outcome GitHub gave is settled.
func (e *Eval) FindEffect(key string) (*model.Run, *lang.Stage) {
	for _, run := range e.St.Runs {
		if run.Status.Final() {
			continue
		}
		p := e.Cfg.PipelineFor(run)
		if p == nil {
			continue
		}
		stage := p.Stage(run.Stage)
		if stage != nil && stage.Type == lang.StageAgent && agent.DispatchKey(run, stage) == key {
			return run, stage
		}
		if stage != nil && stage.Type == lang.StageParallel {
			if b := branchEffect(run, stage, key); b != nil {
				return run, b
			}
		}
		if stage == nil || stage.Type != lang.StageAction {
			continue
		}
		sr := run.Stages[stage.ID]
		if fmt.Sprintf("%s/%s/%d/%s", run.ID, stage.ID, sr.Attempt, stage.Action) == key {
			return run, stage
		}
	}
	return nil, nil
}
