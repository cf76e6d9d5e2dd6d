package engine

import (
	"fmt"
	"strings"

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

// applyAgentFailure handles an agent that ended without a report.
func (e *eval) applyAgentFailure(f *AgentFailure) {
	run, _, stage, why := e.agentAt(f.Run, f.Stage, f.Attempt)
	if why == "" {
		why = e.notAgentsRun(stage, run.Stages[stage.ID], f)
	}
	if why != "" {
		e.logf("the end of the workflow run %s for run %q, stage %q, attempt %d ignored: %s", runRef(f.RunID), f.Run, f.Stage, f.Attempt, why)
		return
	}
	msg := fmt.Sprintf("agent %s ended without a report", stage.Agent)
	if f.Why != "" {
		msg += " (" + f.Why + ")"
	}
	e.agentError(run, stage, msg)
}

// notAgentsRun says why the workflow run f describes is not the one the action
// dispatched for sr's attempt of stage; "" when it is.
func (e *eval) notAgentsRun(stage *lang.Stage, sr *StageRun, f *AgentFailure) string {
	ag := e.cfg.Agent(stage.Agent)
	if ag == nil || ag.Dispatch != lang.DispatchWorkflow {
		return fmt.Sprintf("agent %s is not dispatched as a workflow, so no workflow run is its own (its stage waits for its report or its timeout)", stage.Agent)
	}
	if want := ".github/workflows/" + ag.Workflow; f.Path != want {
		return fmt.Sprintf("its workflow file is %q, not the agent's %q", f.Path, want)
	}
	ref := ag.Ref
	if ref == "" {
		ref = e.facts.DefaultBranch
	}
	if ref = strings.TrimPrefix(ref, "refs/heads/"); f.Branch != ref {
		return fmt.Sprintf("it ran on %q, not on %q, where the agent is dispatched", f.Branch, ref)
	}
	if f.Event != "workflow_dispatch" {
		return fmt.Sprintf("it was started by %q, not by a workflow_dispatch", f.Event)
	}
	if e.facts.Viewer == "" {
		return "the action's own identity is not known, so who started it cannot be told"
	}
	for _, who := range []string{f.Actor, f.TriggeringActor} {
		// As REST spells logins (ghapi.Login): a user named like the action's bot is not it.
		if !strings.EqualFold(who, e.facts.Viewer) {
			return fmt.Sprintf("it was started by %q, not by the action (%s)", who, e.facts.Viewer)
		}
	}
	if sr.AgentRun != 0 && f.RunID != sr.AgentRun {
		return fmt.Sprintf("the dispatch of this attempt started workflow run %d, not this one", sr.AgentRun)
	}
	return ""
}

// runRef names a workflow run in the log.
func runRef(id int64) string {
	if id == 0 {
		return "(no id)"
	}
	return fmt.Sprint(id)
}

// agentError applies the stage's on_error policy: a new attempt while retries remain,
// then its `then` (default fail). It reports whether the run moved.
func (e *eval) agentError(run *Run, stage *lang.Stage, why string) bool {
	sr := run.Stages[stage.ID]
	sr.Errors++
	pol := stage.OnError
	if pol == nil {
		pol = &lang.ErrorPolicy{Then: lang.TargetFail}
	}
	if sr.Errors <= pol.Retry {
		sr.Status = StageFailed
		e.logf("run %s: %s; retrying (%d of %d)", run.ID, why, sr.Errors, pol.Retry)
		e.enter(run, stage.ID, stage.ID, fmt.Sprintf("%s; retry %d of %d", why, sr.Errors, pol.Retry))
		return true
	}
	then := pol.Then
	if then == "" {
		then = lang.TargetFail
	}
	sr.Message = why
	if pol.Retry > 0 {
		why = fmt.Sprintf("%s; %d %s spent", why, pol.Retry, plural(pol.Retry, "retry", "retries"))
	}
	e.leave(run, stage, StageFailed, then, why)
	return !run.Status.Final()
}
