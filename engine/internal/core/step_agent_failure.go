package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// NotAgentsRun says why the workflow run f describes is not the one the action
// dispatched for sr's attempt of stage; "" when it is.
func (e *Eval) NotAgentsRun(stage *lang.Stage, sr *model.StageRun, f *model.AgentFailure) string {
	ag := e.Cfg.Agent(stage.Agent)
	if ag == nil || ag.Dispatch != lang.DispatchWorkflow {
		return fmt.Sprintf("agent %s is not dispatched as a workflow, so no workflow run is its own (its stage waits for its report or its timeout)", stage.Agent)
	}
	if want := ".github/workflows/" + ag.Workflow; f.Path != want {
		return fmt.Sprintf("its workflow file is %q, not the agent's %q", f.Path, want)
	}
	ref := ag.Ref
	if ref == "" {
		ref = e.Facts.DefaultBranch
	}
	if ref = strings.TrimPrefix(ref, "refs/heads/"); f.Branch != ref {
		return fmt.Sprintf("it ran on %q, not on %q, where the agent is dispatched", f.Branch, ref)
	}
	if f.Event != "workflow_dispatch" {
		return fmt.Sprintf("it was started by %q, not by a workflow_dispatch", f.Event)
	}
	if e.Facts.Viewer == "" {
		return "the action's own identity is not known, so who started it cannot be told"
	}
	for _, who := range []string{f.Actor, f.TriggeringActor} {
		// As REST spells logins (ghapi.Login): a user named like the action's bot is not it.
		if !strings.EqualFold(who, e.Facts.Viewer) {
			return fmt.Sprintf("it was started by %q, not by the action (%s)", who, e.Facts.Viewer)
		}
	}
	if sr.AgentRun != 0 && f.RunID != sr.AgentRun {
		return fmt.Sprintf("the dispatch of this attempt started workflow run %d, not this one", sr.AgentRun)
	}
	return ""
}

// RunRef names a workflow run in the log.
func RunRef(id int64) string {
	if id == 0 {
		return "(no id)"
	}
	return fmt.Sprint(id)
}
