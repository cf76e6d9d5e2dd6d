package react

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"

	"github.com/org/pipeline-action/engine/feedback"
	"github.com/org/pipeline-action/engine/lang"
)

// The `wake_agent` reaction of on_events: a dispatch of the reaction's `agent` (by default
// the agent of the stage the run is at) carrying the event, once per delivery of the event
// (per head commit for a push). It builds the dispatch as an agent stage does,
// with `action: wake` and the event under "event" in the `context` input
// ({name, delivery, actor, head_sha, message}), so that a workflow_dispatch keeps to the
// inputs of DispatchInputs. The run does not move: the woken agent works on the attempt
// the run is at, and reports for it as usual.
//
// Only an event by someone with the chat-ops permission (settings.chatops.permission,
// default write) wakes an agent: a dispatch costs, and the agent reads the event, so
// anyone who can comment on a public repository must not be able to start one.
// ReactionNeeds (package core) names the permission to read for that.
//
// An event by an app (a login ending in [bot], the action's own identity, or an agent's
// login) wakes no agent: an agent's comment or push would otherwise wake agents again, in a loop.
//
// Like a notification, the dispatch is write-ahead: its key is recorded in Run.Applied
// when it is asked for, and only the invocation whose save of that state won performs
// it; its outcome is logged (ListOutcome).

// wake asks for the dispatch of wake_agent reaction r of run to input in.
func wake(k Kernel, p *lang.Pipeline, run *model.Run, r *lang.EventReaction, in model.Input) {
	w := k.World()
	stage := p.Stage(run.Stage)
	name := r.Agent
	if name == "" && stage != nil && stage.Type == lang.StageAgent {
		name = stage.Agent
	}
	if name == "" || stage == nil {
		k.Logf("run %s: on_events %s wake_agent at %s: the run is at stage %q, which is not an agent stage, and the reaction names no agent; nothing dispatched", run.ID, r.Event, r.Pos, run.Stage)
		return
	}
	ag := w.Cfg.Agent(name)
	if ag == nil {
		k.Logf("run %s: on_events %s wake_agent at %s: agent %q is not in the config; nothing dispatched", run.ID, r.Event, r.Pos, name)
		return
	}
	if a := in.Actor; strings.HasSuffix(strings.ToLower(a), "[bot]") || model.SameIdentity(a, w.Facts.Viewer) || w.Facts.IsAgent(a) {
		// An agent's own comment or push must not wake agents again, in a loop.
		k.Logf("run %s: on_events %s wake_agent: the event is by %s, an app; no agent is woken by an app's event", run.ID, r.Event, a)
		return
	}
	if why := actorRefused(w, in); why != "" {
		k.Logf("run %s: on_events %s wake_agent: %s; no agent woken", run.ID, r.Event, why)
		return
	}
	key, prefix := reactionKey(w, run, r, in, "wake")
	if slices.Contains(run.Applied, key) || slices.Contains(w.Facts.PR.Posted, key) {
		k.Logf("run %s: agent %s was woken for this %s already", run.ID, name, r.Event)
		return
	}
	event, message, ok := wakeEvent(k, p, run, r, in)
	if !ok {
		return
	}
	eff, err := k.AgentDispatch(p, run, stage, ag, key)
	if err == nil {
		err = wakeEffect(&eff, event, message)
	}
	if err != nil {
		k.Logf("run %s: on_events %s wake_agent at %s: dispatching agent %q: %v; nothing dispatched", run.ID, r.Event, r.Pos, name, err)
		return
	}
	eff.WriteAhead = true
	model.AppendBounded(run, key, model.SameReaction(prefix, key))
	k.Record(run, fmt.Sprintf("agent %s woken on %s (%s)", name, r.Event, eventWhat(w, r)))
	k.Logf("run %s: agent %s woken on %s", run.ID, name, r.Event)
	k.Emit(eff)
}

// wakeEvent is the event a woken agent is handed, and the reaction's message; false when
// the event's comment is not its author's own words now, and no agent is woken.
func wakeEvent(k Kernel, p *lang.Pipeline, run *model.Run, r *lang.EventReaction, in model.Input) (event map[string]any, message string, ok bool) {
	facts := k.World().Facts
	env := k.TemplateEnv(p, run)
	event = map[string]any{"name": in.Event, "delivery": in.Key, "actor": in.Actor, "head_sha": facts.PR.HeadSHA}
	c, own := feedback.EventComment(facts.PR, in)
	if !own {
		k.Logf("run %s: on_events %s wake_agent: comment %d is not @%s's own words now (someone else edited it); no agent woken", run.ID, r.Event, in.CommentID, in.Actor)
		return nil, "", false
	}
	if c != nil {
		event["comment"] = c
		if tr, ok := env["trigger"].(map[string]any); ok {
			tr["comment"] = c
		}
	}
	if r.Message != nil {
		var err error
		if message, err = render.Text(r.Message, env); err != nil {
			// The agent is woken all the same: the event is what it needs.
			k.Logf("run %s: on_events %s wake_agent: its message at %s: %v; woken without it", run.ID, r.Event, r.Message.Pos, err)
			message = ""
		} else {
			event["message"] = message
		}
	}
	return event, message, true
}

// wakeEffect turns a stage's dispatch into a wake-up: the event goes into the context
// input (workflow, repository_dispatch) or before the comment (comment).
func wakeEffect(eff *model.Effect, event map[string]any, message string) error {
	switch eff.Dispatch {
	case lang.DispatchWorkflow, lang.DispatchRepositoryDispatch:
		ctx := map[string]any{}
		if err := json.Unmarshal([]byte(eff.Inputs["context"]), &ctx); err != nil {
			return fmt.Errorf("the context does not decode: %v", err)
		}
		ctx["event"] = event
		b, err := json.Marshal(ctx)
		if err != nil {
			return fmt.Errorf("the context does not encode as JSON: %v", err)
		}
		eff.Inputs["context"] = string(b)
		eff.Inputs["action"] = model.WakeAction
	case lang.DispatchComment:
		if message != "" {
			eff.Body = message + "\n\n" + eff.Body
		}
	}
	return nil
}
