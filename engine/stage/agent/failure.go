package agent

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
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

// Failure handles an agent that ended without a report; run stands at that attempt of s.
func (Type) Failure(c stage.Context, run *model.Run, s *lang.Stage, f *model.AgentFailure) stage.Decision {
	if why := notAgentsRun(c, s, run.Stages[s.ID], f); why != "" {
		c.Logf("%s", Ignored(f, why))
		return stage.Stay()
	}
	msg := fmt.Sprintf("agent %s ended without a report", s.Agent)
	if f.Why != "" {
		msg += " (" + f.Why + ")"
	}
	return stage.Error(msg)
}

// notAgentsRun says why the workflow run f describes is not the one the action
// dispatched for sr's attempt of s; "" when it is.
func notAgentsRun(c stage.Context, s *lang.Stage, sr *model.StageRun, f *model.AgentFailure) string {
	ag := c.Agent(s.Agent)
	if ag == nil || ag.Dispatch != lang.DispatchWorkflow {
		return fmt.Sprintf("agent %s is not dispatched as a workflow, so no workflow run is its own (its stage waits for its report or its timeout)", s.Agent)
	}
	if want := ".github/workflows/" + ag.Workflow; f.Path != want {
		return fmt.Sprintf("its workflow file is %q, not the agent's %q", f.Path, want)
	}
	facts := c.Facts()
	ref := ag.Ref
	if ref == "" {
		ref = facts.DefaultBranch
	}
	if ref = strings.TrimPrefix(ref, "refs/heads/"); f.Branch != ref {
		return fmt.Sprintf("it ran on %q, not on %q, where the agent is dispatched", f.Branch, ref)
	}
	if f.Event != "workflow_dispatch" {
		return fmt.Sprintf("it was started by %q, not by a workflow_dispatch", f.Event)
	}
	if facts.Viewer == "" {
		return "the action's own identity is not known, so who started it cannot be told"
	}
	for _, who := range []string{f.Actor, f.TriggeringActor} {
		// As REST spells logins (ghapi.Login): a user named like the action's bot is not it.
		if !strings.EqualFold(who, facts.Viewer) {
			return fmt.Sprintf("it was started by %q, not by the action (%s)", who, facts.Viewer)
		}
	}
	if sr.AgentRun != 0 && f.RunID != sr.AgentRun {
		return fmt.Sprintf("the dispatch of this attempt started workflow run %d, not this one", sr.AgentRun)
	}
	return ""
}

// Ignored is the log line of f, an agent failure ignored for why.
func Ignored(f *model.AgentFailure, why string) string {
	ref := "(no id)"
	if f.RunID != 0 {
		ref = fmt.Sprint(f.RunID)
	}
	return fmt.Sprintf("the end of the workflow run %s for run %q, stage %q, attempt %d ignored: %s", ref, f.Run, f.Stage, f.Attempt, why)
}
