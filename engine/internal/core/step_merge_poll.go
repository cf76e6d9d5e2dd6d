package core

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// MergeabilityDue records that the poll is due; the stage's evaluation, which knows whether
// it still waits on GitHub, decides what to do (waitMergeability).
func (e *Eval) MergeabilityDue(_ *lang.Pipeline, run *model.Run, _ *lang.Stage, d model.Deadline) bool {
	if e.MergePolls == nil {
		e.MergePolls = map[string]model.Deadline{}
	}
	e.MergePolls[run.ID] = d
	return false
}
