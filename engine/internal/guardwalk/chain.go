package guardwalk

import (
	"fmt"

	"github.com/org/pipeline-action/engine/internal/runtree"
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Up is the link from child, a run of pipeline cp, to its parent, checked against the
// config, since the chain is read from the state: the link must be a pipeline stage of the
// parent's pipeline that runs cp, at the attempt that started child, with the parent
// standing there. It returns the parent, its pipeline and the stage of it the guard walks
// to (the parallel stage of a branch), or why the chain cannot be verified. n counts the
// links climbed so far.
func Up(t runtree.Tree, child *model.Run, cp *lang.Pipeline, n int) (parent *model.Run, pp *lang.Pipeline, stage *lang.Stage, why string) {
	parent, stageID := t.ParentOf(child)
	if parent == nil || n > 64 {
		return nil, nil, nil, fmt.Sprintf("the parent run of run %s is not in the state; the merge cannot be verified", child.ID)
	}
	pp = t.Cfg.PipelineFor(parent)
	// link is the stage or branch that started the child; stage is the stage of the
	// parent it belongs to (the parallel stage of a branch), the guard's target.
	var link *lang.Stage
	if pp != nil {
		link, stage = pp.Stage(stageID), pp.Stage(stageID)
		if link == nil {
			stage = pp.Stage(parent.Stage)
			link = runtree.BranchIn(stage, stageID)
		}
	}
	sr := parent.Stages[stageID]
	switch {
	case pp == nil:
		return nil, nil, nil, fmt.Sprintf("pipeline %q of the parent run %s is not in the config; the merge cannot be verified", parent.Pipeline, parent.ID)
	case link == nil || link.Type != lang.StagePipeline || link.Pipeline != cp.Name:
		return nil, nil, nil, fmt.Sprintf("run %s claims stage %q of run %s as its parent, which does not run pipeline %q; the merge cannot be verified", child.ID, stageID, parent.ID, cp.Name)
	case parent.Status.Final() || parent.Status == model.RunEscalated || !t.StandsAt(parent, stageID) || sr == nil || sr.Child != child.ID || sr.Attempt != child.ParentAttempt:
		return nil, nil, nil, fmt.Sprintf("the parent run %s does not stand at the attempt of stage %q that started run %s; the merge cannot be verified", parent.ID, stageID, child.ID)
	case link != stage:
		// The other branches of the parallel stage are still to be joined: a merge
		// belongs after the join (as an action branch may not merge).
		return nil, nil, nil, fmt.Sprintf("run %s runs branch %q of parallel stage %q of run %s: a merge belongs after the join, not inside a branch; the merge is not made", child.ID, stageID, stage.ID, parent.ID)
	}
	return parent, pp, stage, ""
}
