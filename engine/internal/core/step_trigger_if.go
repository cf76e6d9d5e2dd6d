package core

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// triggerIfRefused evaluates p's trigger `if` (when it has one) over the event as the facts
// describe it: `trigger.pull_request.*` (TriggerEnv), `trigger.action` (the action of the
// trigger's event, "opened" for pull_request.opened), `trigger.sender.login` (who sent the
// event, when this is the trigger's own event or a start by hand; null for a late start),
// `trigger.comment` ({id, body, user: {login}} of the comment an issue_comment event names,
// as the facts read it; null otherwise) and the `github` root. The pipeline starts only when
// the expression gives true: false, anything that is not a boolean, and an error all keep
// it from starting, and why is returned (loud for an error, which the job log always
// shows). As a trigger is level-triggered, a later event evaluates it again.
func (e *Eval) triggerIfRefused(p *lang.Pipeline, in Input, onEvent bool) (why string, loud bool) {
	x := p.Trigger.If
	if x == nil {
		return "", false
	}
	ok, err := x.Bool(e.triggerIfEnv(p, in, onEvent))
	switch {
	case err != nil:
		return fmt.Sprintf("its trigger \"if\" at %s could not be evaluated: %v", x.Pos, err), true
	case !ok:
		return fmt.Sprintf("its trigger \"if\" (%s) at %s is false", x.Src, x.Pos), false
	}
	return "", false
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
	if c := e.CommentByID(in.CommentID); onEvent && c != nil {
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
