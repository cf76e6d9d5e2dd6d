package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/render"
	"github.com/org/pipeline-action/engine/stage/agent"

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
// WakeNeeds names the permission to read for that.
//
// An event by an app (a login ending in [bot], the action's own identity, or an agent's
// login) wakes no agent: an agent's comment or push would otherwise wake agents again, in a loop.
//
// Like a notification, the dispatch is write-ahead: its key is recorded in Run.Applied
// when it is asked for, and only the invocation whose save of that state won performs
// it; its outcome is logged (ListOutcome).

// reactWake asks for the dispatch of wake_agent reaction r of run to input in.
func (e *eval) reactWake(p *lang.Pipeline, run *model.Run, r *lang.EventReaction, in model.Input) {
	stage := p.Stage(run.Stage)
	name := r.Agent
	if name == "" && stage != nil && stage.Type == lang.StageAgent {
		name = stage.Agent
	}
	if name == "" || stage == nil {
		e.Logf("run %s: on_events %s wake_agent at %s: the run is at stage %q, which is not an agent stage, and the reaction names no agent; nothing dispatched", run.ID, r.Event, r.Pos, run.Stage)
		return
	}
	ag := e.Cfg.Agent(name)
	if ag == nil {
		e.Logf("run %s: on_events %s wake_agent at %s: agent %q is not in the config; nothing dispatched", run.ID, r.Event, r.Pos, name)
		return
	}
	if a := in.Actor; strings.HasSuffix(strings.ToLower(a), "[bot]") || model.SameIdentity(a, e.Facts.Viewer) || e.Facts.IsAgent(a) {
		// An agent's own comment or push must not wake agents again, in a loop.
		e.Logf("run %s: on_events %s wake_agent: the event is by %s, an app; no agent is woken by an app's event", run.ID, r.Event, a)
		return
	}
	if why := e.ActorRefused(in); why != "" {
		e.Logf("run %s: on_events %s wake_agent: %s; no agent woken", run.ID, r.Event, why)
		return
	}
	key, prefix := e.ReactionKey(run, r, in, "wake")
	if slices.Contains(run.Applied, key) || slices.Contains(e.Facts.PR.Posted, key) {
		e.Logf("run %s: agent %s was woken for this %s already", run.ID, name, r.Event)
		return
	}
	env := e.templateEnv(p, run)
	event := map[string]any{"name": in.Event, "delivery": in.Key, "actor": in.Actor, "head_sha": e.Facts.PR.HeadSHA}
	c, own := feedback.EventComment(e.Facts.PR, in)
	if !own {
		e.Logf("run %s: on_events %s wake_agent: comment %d is not @%s's own words now (someone else edited it); no agent woken", run.ID, r.Event, in.CommentID, in.Actor)
		return
	}
	if c != nil {
		event["comment"] = c
		if tr, ok := env["trigger"].(map[string]any); ok {
			tr["comment"] = c
		}
	}
	message := ""
	if r.Message != nil {
		var err error
		if message, err = render.Text(r.Message, env); err != nil {
			// The agent is woken all the same: the event is what it needs.
			e.Logf("run %s: on_events %s wake_agent: its message at %s: %v; woken without it", run.ID, r.Event, r.Message.Pos, err)
			message = ""
		} else {
			event["message"] = message
		}
	}
	eff, err := agent.DispatchEffect(e.context(p, run), run, stage, ag, key)
	if err == nil {
		err = core.WakeEffect(&eff, event, message)
	}
	if err != nil {
		e.Logf("run %s: on_events %s wake_agent at %s: dispatching agent %q: %v; nothing dispatched", run.ID, r.Event, r.Pos, name, err)
		return
	}
	eff.WriteAhead = true
	model.AppendBounded(run, key, model.SameReaction(prefix, key))
	e.Record(run, run.Stage, run.Stage, fmt.Sprintf("agent %s woken on %s (%s)", name, r.Event, e.EventWhat(r)))
	e.Logf("run %s: agent %s woken on %s", run.ID, name, r.Event)
	e.Effects = append(e.Effects, eff)
}
