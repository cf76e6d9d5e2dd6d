package core

import (
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// TriggerIfHolds evaluates p's trigger `if` (when it has one) over the event as the facts
// describe it: `trigger.pull_request.*` (TriggerEnv), `trigger.action` (the action of the
// trigger's event, "opened" for pull_request.opened), `trigger.sender.login` (who sent the
// event, when this is the trigger's own event; null for a late start), `trigger.comment`
// ({id, body, user: {login}} of the comment an issue_comment event names, as the facts read
// it; null otherwise) and the `github` root. The pipeline starts only when the expression gives true: false, anything that is
// not a boolean, and an error all keep it from starting, and the job log says which. As a
// trigger is level-triggered, a later event evaluates it again.
func (e *Eval) TriggerIfHolds(p *lang.Pipeline, in Input, onEvent bool) bool {
	x := p.Trigger.If
	if x == nil {
		return true
	}
	ok, err := x.Bool(e.triggerIfEnv(p, in, onEvent))
	switch {
	case err != nil:
		e.Logf("pipeline %q: its trigger \"if\" at %s could not be evaluated: %v; not started", p.Name, x.Pos, err)
		return false
	case !ok:
		if onEvent {
			e.Logf("pipeline %q: its trigger \"if\" (%s) at %s is false; not started", p.Name, x.Src, x.Pos)
		}
		return false
	}
	return true
}

func (e *Eval) triggerIfEnv(p *lang.Pipeline, in Input, onEvent bool) lang.Env {
	trig := TriggerEnv(e.Facts)
	if _, action, ok := strings.Cut(p.Trigger.Event, "."); ok {
		trig["action"] = action
	}
	var sender any
	if onEvent && in.Actor != "" {
		sender = map[string]any{"login": in.Actor}
	}
	trig["sender"] = sender
	trig["comment"] = nil
	if c := e.CommentByID(in.CommentID); onEvent && c != nil && !c.Disowned() { // someone else's words are not its author's
		trig["comment"] = map[string]any{"id": c.ID, "body": c.Body, "user": map[string]any{"login": c.Author}}
	}
	return lang.Env{"trigger": trig, "github": FactsEnv(e.Facts)}
}

// CommentByID is the comment of the subject the facts read with id, or nil.
func (e *Eval) CommentByID(id int64) *IssueComment { return e.Facts.PR.Comment(id) }

// Comment is pr's comment with id among those read, or nil.
func (pr *PullRequest) Comment(id int64) *IssueComment {
	for i := range pr.Comments {
		if c := &pr.Comments[i]; id != 0 && c.ID == id {
			return c
		}
	}
	return nil
}
