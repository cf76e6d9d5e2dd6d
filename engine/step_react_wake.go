package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
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
func (e *eval) reactWake(p *lang.Pipeline, run *Run, r *lang.EventReaction, in Input) {
	stage := p.Stage(run.Stage)
	name := r.Agent
	if name == "" && stage != nil && stage.Type == lang.StageAgent {
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
	if why := e.actorRefused(in); why != "" {
		e.logf("run %s: on_events %s wake_agent: %s; no agent woken", run.ID, r.Event, why)
		return
	}
	key, prefix := e.reactionKey(run, r, in, "wake")
	if contains(run.Applied, key) || contains(e.facts.PR.Posted, key) {
		e.logf("run %s: agent %s was woken for this %s already", run.ID, name, r.Event)
		return
	}
	env := e.templateEnv(p, run)
	event := map[string]any{"name": in.Event, "delivery": in.Key, "actor": in.Actor, "head_sha": e.facts.PR.HeadSHA}
	if c := e.eventComment(in); c != nil {
		event["comment"] = c
		if tr, ok := env["trigger"].(map[string]any); ok {
			tr["comment"] = c
		}
	}
	message := ""
	if r.Message != nil {
		var err error
		if message, err = renderText(r.Message, env); err != nil {
			// The agent is woken all the same: the event is what it needs.
			e.logf("run %s: on_events %s wake_agent: its message at %s: %v; woken without it", run.ID, r.Event, r.Message.Pos, err)
			message = ""
		} else {
			event["message"] = message
		}
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
	appendBounded(run, key, sameReaction(prefix, key))
	e.record(run, run.Stage, run.Stage, fmt.Sprintf("agent %s woken on %s (%s)", name, r.Event, e.eventWhat(r)))
	e.logf("run %s: agent %s woken on %s", run.ID, name, r.Event)
	e.effects = append(e.effects, eff)
}

// wakeEffect turns a stage's dispatch into a wake-up: the event goes into the context
// input (workflow, repository_dispatch) or before the comment (comment).
func wakeEffect(eff *Effect, event map[string]any, message string) error {
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
		eff.Inputs["action"] = WakeAction
	case lang.DispatchComment:
		if message != "" {
			eff.Body = message + "\n\n" + eff.Body
		}
	}
	return nil
}

// maxEventComment bounds the body of the event's comment a wake-up carries (workflow_dispatch
// inputs are bounded in all).
const maxEventComment = 4000

// eventComment is the comment of an issue_comment event — the newest comment on the pull
// request by the event's actor, as the facts read it — as the wake-up carries it
// ({id, body, user: {login}}), or nil.
func (e *eval) eventComment(in Input) map[string]any {
	if !strings.HasPrefix(in.Event, "issue_comment.") || in.Actor == "" {
		return nil
	}
	var found *IssueComment
	for i := range e.facts.PR.Comments {
		c := &e.facts.PR.Comments[i]
		if strings.EqualFold(c.Author, in.Actor) && !c.Viewer && (found == nil || c.ID > found.ID) {
			found = c
		}
	}
	if found == nil {
		return nil
	}
	body := []rune(found.Body)
	if len(body) > maxEventComment {
		body = append(body[:maxEventComment], '…')
	}
	return map[string]any{"id": found.ID, "body": string(body), "user": map[string]any{"login": found.Author}}
}

// actorPermission is the permission an event's actor needs for a reaction to act on it.
func actorPermission(cfg *lang.Config) string {
	if cfg.Settings.ChatOpsPermission != "" {
		return cfg.Settings.ChatOpsPermission
	}
	return DefaultChatOpsPermission
}

// actorRefused says why the actor of in may not move a reaction (wake an agent, restart a
// run), or "": it needs the chat-ops permission (settings.chatops.permission, default write).
func (e *eval) actorRefused(in Input) string {
	need := actorPermission(e.cfg)
	if e.facts.People.Has(in.Actor, need) {
		return ""
	}
	have, ok := e.facts.People.Permission(in.Actor)
	if !ok {
		have = "not known"
	}
	return fmt.Sprintf("the event is by @%s, whose permission is %s; it needs %s (settings.chatops.permission)", in.Actor, have, need)
}

// reactsOnPermission reports whether reaction r acts only on events by people with the
// chat-ops permission: wake_agent always; invalidate_and_restart except on a push, which
// makes approvals stale whoever pushed.
func reactsOnPermission(r *lang.EventReaction) bool {
	return r.Action == lang.ReactWakeAgent || r.Action == lang.ReactInvalidateAndRestart && r.Event != "pull_request.synchronize"
}

// ReactionNeeds is what the reactions to in need read: the permission of its actor, when a
// run on st reacts to in.Event with a reaction that needs it (reactsOnPermission).
func ReactionNeeds(cfg *lang.Config, st *State, in Input) Needs {
	if cfg == nil || st == nil || in.Actor == "" || strings.HasSuffix(strings.ToLower(in.Actor), "[bot]") {
		return Needs{}
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		if p := cfg.PipelineFor(run); p != nil {
			if r := p.Reaction(in.Event); r != nil && reactsOnPermission(r) {
				return Needs{Permissions: []string{in.Actor}}
			}
		}
	}
	return Needs{}
}
