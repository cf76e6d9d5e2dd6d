package engine

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// An agent that ends without a report. The pipelines workflow learns of it from a
// workflow_run.completed event whose run-name names the run, stage and attempt; but anyone
// with write access can start a workflow run named so — a workflow of the same name on
// their own branch, another file, another event, or the agent's own workflow dispatched
// by hand. Only the run the action itself dispatched may fail the stage: the one whose
// workflow file is the agent's, that ran on the ref the agent is dispatched on, was
// started by workflow_dispatch and by the action's own identity (actor and
// triggering_actor: a re-run by a person is theirs), and — when GitHub told its id at
// dispatch time — whose id is the one recorded.

// applyAgentFailure handles an agent that ended without a report; run stands at that
// attempt of stage.
func (e *eval) applyAgentFailure(run *model.Run, stage *lang.Stage, f *model.AgentFailure) {
	if why := e.NotAgentsRun(stage, run.Stages[stage.ID], f); why != "" {
		ignoreFailure(e, f, why)
		return
	}
	msg := fmt.Sprintf("agent %s ended without a report", stage.Agent)
	if f.Why != "" {
		msg += " (" + f.Why + ")"
	}
	e.agentError(run, stage, msg)
}

// agentError applies the stage's on_error policy: a new attempt while retries remain,
// then its `then` (default fail). It reports whether the run moved.
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
