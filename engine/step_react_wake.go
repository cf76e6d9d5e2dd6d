package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The `wake_agent` reaction of on_events: a dispatch of the reaction's `agent` (by default
// the agent of the stage the run is at) carrying the event, once per delivery of the event
// (per head commit for a push). It builds the dispatch as an agent stage does
// (step_agent.go), with `action: wake` and the event under "event" in the `context` input
// ({name, delivery, actor, head_sha, message}), so that a workflow_dispatch keeps to the
// inputs of DispatchInputs. The run does not move: the woken agent works on the attempt
// the run is at, and reports for it as usual.
//
// Only an event by someone with the chat-ops permission (settings.chatops.permission,
// default write) wakes an agent: a dispatch costs, and the agent reads the event, so
// anyone who can comment on a public repository must not be able to start one.
// WakeNeeds names the permission to read for that.
//
// An event by an app (a login ending in [bot], or the action's own identity) wakes no
// agent: an agent's comment or push would otherwise wake agents again, in a loop.
//
// Like a notification, the dispatch is write-ahead: its key is recorded in Run.Applied
// when it is asked for, and only the invocation whose save of that state won performs
// it; its outcome is logged (listOutcome).

// WakeAction is the `action` input of a dispatch made by a wake_agent reaction.
const WakeAction = "wake"

// reactWake asks for the dispatch of wake_agent reaction r of run to input in.
func (e *eval) reactWake(p *Pipeline, run *Run, r *EventReaction, in Input) {
	stage := p.Stage(run.Stage)
	name := r.Agent
	if name == "" && stage != nil && stage.Type == StageAgent {
		name = stage.Agent
	}
	if name == "" || stage == nil {
		e.logf("run %s: on_events %s wake_agent at %s: the run is at stage %q, which is not an agent stage, and the reaction names no agent; nothing dispatched", run.ID, r.Event, r.Pos, run.Stage)
		return
	}
	ag := e.cfg.Agent(name)
	if ag == nil {
		e.logf("run %s: on_events %s wake_agent at %s: agent %q is not in the config; nothing dispatched", run.ID, r.Event, r.Pos, name)
		return
	}
	if a := in.Actor; strings.HasSuffix(strings.ToLower(a), "[bot]") || SameIdentity(a, e.facts.Viewer) {
		// An agent's own comment or push must not wake agents again, in a loop.
		e.logf("run %s: on_events %s wake_agent: the event is by %s, an app; no agent is woken by an app's event", run.ID, r.Event, a)
		return
	}
	if need := wakePermission(e.cfg); !e.facts.People.Has(in.Actor, need) {
		have, ok := e.facts.People.Permission(in.Actor)
		if !ok {
			have = "not known"
		}
		e.logf("run %s: on_events %s wake_agent: the event is by @%s, whose permission is %s; waking an agent needs %s (settings.chatops.permission)", run.ID, r.Event, in.Actor, have, need)
		return
	}
	key, prefix := e.reactionKey(run, r, in, "wake")
	if contains(run.Applied, key) || contains(e.facts.PR.Posted, key) {
		e.logf("run %s: agent %s was woken for this %s already", run.ID, name, r.Event)
		return
	}
	env := e.templateEnv(p, run)
	event := map[string]any{"name": in.Event, "delivery": in.Key, "actor": in.Actor, "head_sha": e.facts.PR.HeadSHA}
	message := ""
	if r.Message != nil {
		var err error
		if message, err = renderText(r.Message, env); err != nil {
			e.logf("run %s: on_events %s wake_agent at %s: %v; nothing dispatched", run.ID, r.Event, r.Pos, err)
			return
		}
		event["message"] = message
	}
	eff, err := e.dispatchEffect(p, run, stage, ag, key)
	if err == nil {
		err = wakeEffect(&eff, event, message)
	}
	if err != nil {
		e.logf("run %s: on_events %s wake_agent at %s: dispatching agent %q: %v; nothing dispatched", run.ID, r.Event, r.Pos, name, err)
		return
	}
	eff.WriteAhead = true
	appendBounded(run, key, func(k string) bool { return strings.HasPrefix(k, prefix) })
	e.record(run, run.Stage, run.Stage, fmt.Sprintf("agent %s woken on %s (%s)", name, r.Event, e.eventWhat(r)))
	e.logf("run %s: agent %s woken on %s", run.ID, name, r.Event)
	e.effects = append(e.effects, eff)
}

// wakeEffect turns a stage's dispatch into a wake-up: the event goes into the context
// input (workflow, repository_dispatch) or before the comment (comment).
func wakeEffect(eff *Effect, event map[string]any, message string) error {
	switch eff.Dispatch {
	case DispatchWorkflow, DispatchRepositoryDispatch:
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
		eff.Inputs["action"] = WakeAction
	case DispatchComment:
		if message != "" {
			eff.Body = message + "\n\n" + eff.Body
		}
	}
	return nil
}

// wakePermission is the permission an event's actor needs to wake an agent.
func wakePermission(cfg *Config) string {
	if cfg.Settings.ChatOpsPermission != "" {
		return cfg.Settings.ChatOpsPermission
	}
	return DefaultChatOpsPermission
}

// WakeNeeds is what a wake_agent reaction to in needs read: the permission of its actor,
// when a run on st reacts to in.Event with wake_agent.
func WakeNeeds(cfg *Config, st *State, in Input) Needs {
	if cfg == nil || st == nil || in.Actor == "" || strings.HasSuffix(strings.ToLower(in.Actor), "[bot]") {
		return Needs{}
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		if p := cfg.PipelineFor(run); p != nil {
			if r := p.Reaction(in.Event); r != nil && r.Action == ReactWakeAgent {
				return Needs{Permissions: []string{in.Actor}}
			}
		}
	}
	return Needs{}
}
