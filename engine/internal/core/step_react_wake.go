package core

import (
	"encoding/json"
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// WakeEffect turns a stage's dispatch into a wake-up: the event goes into the context
// input (workflow, repository_dispatch) or before the comment (comment).
func WakeEffect(eff *model.Effect, event map[string]any, message string) error {
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

// actorPermission is the permission an event's actor needs for a reaction to act on it.
func actorPermission(cfg *lang.Config) string {
	if cfg.Settings.ChatOpsPermission != "" {
		return cfg.Settings.ChatOpsPermission
	}
	return model.DefaultChatOpsPermission
}

// ActorRefused says why the actor of in may not move a reaction (wake an agent, restart a
// run), or "": it needs the chat-ops permission (settings.chatops.permission, default write).
func (e *Eval) ActorRefused(in model.Input) string {
	need := actorPermission(e.Cfg)
	if e.Facts.People.Has(in.Actor, need) {
		return ""
	}
	have, ok := e.Facts.People.Permission(in.Actor)
	if !ok {
		have = "not known"
	}
	return fmt.Sprintf("the event is by @%s, whose permission is %s; it needs %s (settings.chatops.permission)", in.Actor, have, need)
}

// ReactsOnPermission reports whether reaction r acts only on events by people with the
// chat-ops permission: wake_agent always; invalidate_and_restart except on a push, which
// makes approvals stale whoever pushed.
func ReactsOnPermission(r *lang.EventReaction) bool {
	return r.Action == lang.ReactWakeAgent || r.Action == lang.ReactInvalidateAndRestart && r.Event != "pull_request.synchronize"
}

// ReactionNeeds is what the reactions to in need read: the permission of its actor, when a
// run on st reacts to in.Event with a reaction that needs it (ReactsOnPermission), or when
// in asks for a start (startNeeds).
func ReactionNeeds(cfg *lang.Config, st *model.State, in model.Input) model.Needs {
	if cfg == nil || st == nil || in.Actor == "" || isApp(in.Actor) {
		return model.Needs{}
	}
	if n := startNeeds(cfg, in); !n.Empty() {
		return n
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		if p := cfg.PipelineFor(run); p != nil {
			if r := p.Reaction(in.Event); r != nil && ReactsOnPermission(r) {
				return model.Needs{Permissions: []string{in.Actor}}
			}
		}
	}
	return model.Needs{}
}
