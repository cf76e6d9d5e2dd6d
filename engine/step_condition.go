package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/condition"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/lang"
)

// A stage's `condition:` is decided once, when the stage is entered: a stage whose
// condition holds runs; one whose condition does not hold is skipped (status skipped)
// and the run goes on to its `skip_to` (by default the next stage). A condition that
// cannot be decided (an expression that fails to run, or the changed files of a pull
// request that were not read) stops the run with the reason: a condition is never
// taken as true or false by default.

// conditionHolds decides c for run: labels_include against the subject's labels,
// paths_match against the pull request's changed files, and an expression over the
// run's env (github, context, stages, variables, trigger …). why says what decided it.
func (e *eval) conditionHolds(p *lang.Pipeline, run *model.Run, c *lang.Predicate) (holds bool, why string, err error) {
	holds, why, needsFiles, err := condition.Decide(c, e.Facts, func() lang.Env { return scope.Env(scopeKernel{e}, p, run) })
	e.NeedsFiles = e.NeedsFiles || needsFiles
	return holds, why, err
}

// enterCondition decides the condition of the stage run is at, once per attempt. It
// reports whether it moved the run (skipped the stage, or stopped the run).
func (e *eval) enterCondition(p *lang.Pipeline, run *model.Run, stage *lang.Stage) (moved bool) {
	sr := run.Stages[stage.ID]
	if stage.Condition == nil || sr == nil || sr.ConditionChecked {
		return false
	}
	ok, why, err := e.conditionHolds(p, run, stage.Condition)
	if err != nil {
		e.finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("stage %q: %v", stage.ID, err))
		return true
	}
	sr.ConditionChecked = true
	if ok {
		return false
	}
	e.leave(run, stage, model.StageSkipped, stage.SkipTo, "condition does not hold ("+why+"); skipped")
	return true
}
