package core

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// WakeAction is the `action` input of a dispatch made by a wake_agent reaction.
const WakeAction = "wake"

// WakeEffect turns a stage's dispatch into a wake-up: the event goes into the context
// input (workflow, repository_dispatch) or before the comment (comment).
func WakeEffect(eff *Effect, event map[string]any, message string) error {
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

// EventComment is the comment of an issue_comment event — the comment the event names
// (Input.CommentID), as the facts read it, written by the event's actor — as the wake-up
// carries it ({id, body, user: {login}}), or nil. ok is false when the event names a
// comment whose text is not its author's word now (someone else edited it) or is not the
// actor's: nothing of it may reach an agent under its author's name. Without an id (an
// older caller), the actor's newest comment is taken.
func (e *Eval) EventComment(in Input) (comment map[string]any, ok bool) {
	if !strings.HasPrefix(in.Event, "issue_comment.") || in.Actor == "" {
		return nil, true
	}
	var found *IssueComment
	if in.CommentID != 0 {
		found = e.CommentByID(in.CommentID)
	} else {
		for i := range e.Facts.PR.Comments {
			c := &e.Facts.PR.Comments[i]
			if strings.EqualFold(c.Author, in.Actor) && !c.Viewer && (found == nil || c.ID > found.ID) {
				found = c
			}
		}
	}
	switch {
	case found == nil:
		return nil, true
	case found.Viewer || found.Disowned() || !strings.EqualFold(found.Author, in.Actor):
		return nil, false
	}
	body := []rune(found.Body)
	if len(body) > maxEventComment {
		body = append(body[:maxEventComment], '…')
	}
	return map[string]any{"id": found.ID, "body": string(body), "user": map[string]any{"login": found.Author}}, true
}

// actorPermission is the permission an event's actor needs for a reaction to act on it.
func actorPermission(cfg *lang.Config) string {
	if cfg.Settings.ChatOpsPermission != "" {
		return cfg.Settings.ChatOpsPermission
	}
	return DefaultChatOpsPermission
}

// ActorRefused says why the actor of in may not move a reaction (wake an agent, restart a
// run), or "": it needs the chat-ops permission (settings.chatops.permission, default write).
func (e *Eval) ActorRefused(in Input) string {
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
func ReactionNeeds(cfg *lang.Config, st *State, in Input) Needs {
	if cfg == nil || st == nil || in.Actor == "" || isApp(in.Actor) {
		return Needs{}
	}
	if n := startNeeds(cfg, in); !n.Empty() { // step_start_needs.go
		return n
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		if p := cfg.PipelineFor(run); p != nil {
			if r := p.Reaction(in.Event); r != nil && ReactsOnPermission(r) {
				return Needs{Permissions: []string{in.Actor}}
			}
		}
	}
	return Needs{}
}
