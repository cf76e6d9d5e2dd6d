package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// agentError applies the stage's on_error policy — its work (an agent, a sub-pipeline)
// failed: a new attempt while retries remain, then its `then` (default fail). It reports
// whether the run moved.
func (e *eval) agentError(run *model.Run, stage *lang.Stage, why string) bool {
	sr := run.Stages[stage.ID]
	sr.Errors++
	pol := stage.OnError
	if pol == nil {
		pol = &lang.ErrorPolicy{Then: lang.TargetFail}
	}
	if sr.Errors <= pol.Retry {
		sr.Status = model.StageFailed
		e.Logf("run %s: %s; retrying (%d of %d)", run.ID, why, sr.Errors, pol.Retry)
		e.MarkNext(run, model.KindRetry)
		e.enter(run, stage.ID, stage.ID, fmt.Sprintf("%s; retry %d of %d", why, sr.Errors, pol.Retry))
		return true
	}
	then := pol.Then
	if then == "" {
		then = lang.TargetFail
	}
	sr.Message = why
	if pol.Retry > 0 {
		why = fmt.Sprintf("%s; %d %s spent", why, pol.Retry, model.Plural(pol.Retry, "retry", "retries"))
	}
	e.MarkNext(run, model.KindError)
	e.leave(run, stage, model.StageFailed, then, why)
	e.MarkNext(nil, "")
	return !run.Status.Final()
}
