package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// Notifying an agent (`notify: <agent>` in an action, a rule, on_timeout, on_events or a
// list) goes through the agent's own dispatch kind, as one dispatch effect:
//
//   - workflow / repository_dispatch: the inputs of a stage dispatch (DispatchInputs) with
//     action "notify", attempt "0" (no stage attempt waits for a report from it; a report
//     naming attempt 0 is refused) and the run's context with "message" added;
//   - comment: a comment of the agent's body (its mention) followed by the message;
//   - label: the agent's label is added (one already on the pull request wakes no one: the
//     notification is then logged as not sent);
//   - assign: the agent's assignee is assigned.
//
// Like any notification it is asked for at most once: its caller records it (Run.Applied,
// or an intent of the action stage) before it is performed.

// ActionNotifyAgent is the `action` input of a dispatch that notifies an agent.
const ActionNotifyAgent = "notify"

// notifiedAgent returns the agent the rendered notification target names, or nil.
func (e *eval) notifiedAgent(target string) *lang.Agent {
	return e.cfg.Agent(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(target), "@")))
}

// planNotifyAgent plans the dispatch that hands text to ag.
func (e *eval) planNotifyAgent(run *Run, eff Effect, ag *lang.Agent, text string, env lang.Env) plannedAction {
	if contains(run.Applied, eff.Key) || contains(e.facts.PR.Posted, eff.Key) {
		return plannedAction{done: "agent " + ag.Name + " notified"}
	}
	eff.Kind, eff.Agent, eff.Dispatch = EffectDispatch, ag.Name, ag.Dispatch
	switch ag.Dispatch {
	case lang.DispatchWorkflow, lang.DispatchRepositoryDispatch:
		ctx := map[string]any{}
		for k, v := range run.Context {
			ctx[k] = v
		}
		ctx["message"] = text
		b, err := json.Marshal(ctx)
		if err != nil {
			return plannedAction{err: fmt.Sprintf("notifying agent %s: the context does not encode as JSON: %v", ag.Name, err)}
		}
		eff.Inputs = map[string]string{
			"run": run.ID, "stage": run.Stage, "attempt": "0", "subject": e.subject(),
			"action": ActionNotifyAgent, "context": string(b),
		}
		eff.Workflow, eff.Ref, eff.EventType = ag.Workflow, ag.Ref, ag.EventType
		if ag.Dispatch == lang.DispatchWorkflow && eff.Ref == "" {
			eff.Ref = e.facts.DefaultBranch
		}
	case lang.DispatchComment:
		body := ag.Body
		if strings.Contains(body, "{{") {
			t, cerr := lang.CompileTemplate(body, ag.Pos)
			if cerr != nil {
				return plannedAction{err: fmt.Sprintf("notifying agent %s: its body: %s", ag.Name, cerr.Message)}
			}
			out, err := renderText(t, env)
			if err != nil {
				return plannedAction{err: fmt.Sprintf("notifying agent %s: %v", ag.Name, err)}
			}
			body = out
		}
		eff.Body = strings.TrimSpace(body + "\n\n" + text)
	case lang.DispatchLabel:
		if e.facts.PR.HasLabel(ag.Label) {
			why := fmt.Sprintf("agent %s not notified: its label %q is on the pull request already, and adding it again wakes no one", ag.Name, ag.Label)
			e.logf("run %s: %s: %s", run.ID, eff.Key, why)
			return plannedAction{done: why}
		}
		eff.Labels = []string{ag.Label}
	case lang.DispatchAssign:
		eff.Assignees = []string{ag.Assignee}
	default:
		return plannedAction{err: fmt.Sprintf("notifying agent %s: unknown dispatch kind %q", ag.Name, ag.Dispatch)}
	}
	return plannedAction{eff: eff}
}

// notifyAgentUnknown settles the intent of an action stage's notification of an agent whose
// outcome stayed unknown. A comment is known from its marker, a workflow dispatch from the
// workflow's runs (Facts.Dispatches): one certainly not sent gives false, which lets it be
// asked again. Otherwise nothing tells (a repository_dispatch leaves nothing to read), so
// it is taken as sent — never sent twice — and the stage moves on, saying so.
func (e *eval) notifyAgentUnknown(run *Run, stage *lang.Stage, it Intent) bool {
	ag := e.notifiedAgentOf(run, stage)
	if ag != nil && ag.Dispatch == lang.DispatchComment {
		return false
	}
	if tr, ok := e.facts.Dispatches[it.Key]; ok && tr.Err == "" && !tr.Seen && !tr.Unsure {
		return false // GitHub shows it certainly not sent (dispatch_unknown.go)
	}
	name := "an agent"
	if ag != nil {
		name = "agent " + ag.Name
	}
	run.Intents = dropIntent(run.Intents, it.Key)
	run.Applied = appendOnce(run.Applied, it.Key)
	why := fmt.Sprintf("whether the notification of %s asked for at %s reached GitHub is not known; it is not sent twice", name, it.At.UTC().Format("2006-01-02 15:04 UTC"))
	e.logf("run %s: %s: %s", run.ID, stage.ID, why)
	e.leave(run, stage, StageSucceeded, stage.OnSuccess, why)
	return true
}

// notifiedAgentOf returns the agent a notify action stage of run names, or nil.
func (e *eval) notifiedAgentOf(run *Run, stage *lang.Stage) *lang.Agent {
	p := e.cfg.PipelineFor(run)
	if stage.Action != lang.ActionNotify || stage.Config.Target == nil || p == nil {
		return nil
	}
	to, err := renderStrict(stage.Config.Target, e.templateEnv(p, run))
	if err != nil {
		return nil
	}
	return e.notifiedAgent(to)
}
