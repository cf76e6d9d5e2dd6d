// Package trigger decides whether a run of a pipeline may start on its subject: the one
// check of the trigger's conditions and `if` that every start goes through — on the
// trigger's own event, late, by `/pipeline start`, by a workflow_dispatch. It reads the
// evaluation's facts and changes nothing.
package trigger

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
)

// StartKind is how a run of a pipeline is asked to start.
type StartKind int

const (
	// StartOnEvent: the event is the trigger's own (IsTriggerEvent).
	StartOnEvent StartKind = iota
	// StartLate: the trigger's state holds since an event that was not seen.
	StartLate
	// StartByHand: `/pipeline start` or a workflow_dispatch naming the pipeline.
	StartByHand
)

// IsTriggerEvent reports whether the event is the one p's trigger waits for: its event,
// and for `pull_request.labeled`/`issues.labeled` with labels, the adding of one of those
// labels. Another label added to a subject that carries them already satisfies nothing:
// it is at most the occasion of a late start, which counts only a trigger that began to
// hold after the pipeline's definition. An event that does not say its label is not one.
func IsTriggerEvent(p *lang.Pipeline, in model.Input) bool {
	t := p.Trigger
	if t.Event == "" || t.Event != in.Event {
		return false
	}
	if strings.HasSuffix(t.Event, ".labeled") && len(t.Labels) > 0 {
		return in.Label != "" && slices.ContainsFunc(t.Labels, func(l string) bool { return lang.SameLabel(l, in.Label) })
	}
	return true
}

// Refused says why a run of p may not start on the subject now, or "": every start
// of a pipeline's run — on its trigger's event, late, by `/pipeline start`, by a
// workflow_dispatch — goes through it. A start by hand stands in for the trigger's event
// and the state it waits for (its labels, draft), not for which subjects the pipeline is
// for: the base branch and author its trigger names must match (a run on another would be
// cancelled by the next event, after acting in this one), and its `if` must hold, with
// whoever started it as `trigger.sender` (and a `/pipeline start` as `trigger.comment`).
// loud says the reason is worth the job log even
// for a late start (an `if` that cannot be evaluated).
func Refused(e *core.Eval, p *lang.Pipeline, in model.Input, kind StartKind) (why string, loud bool) {
	pr := e.Facts.PR
	if pr.State != model.PROpen && !core.ClosingTrigger(p) {
		return fmt.Sprintf("the subject is %s", pr.State), false
	}
	if why := mustMatch(e, p); why != "" {
		return why, false
	}
	if kind != StartByHand {
		if why := stateUnmet(e, p); why != "" {
			return why, false
		}
	}
	return ifRefused(e, p, in, kind != StartLate)
}

// mustMatch says which of the trigger's conditions that must keep holding for as long as
// a run goes on (core.Eval.NoLongerMatches) the subject does not meet, or "".
func mustMatch(e *core.Eval, p *lang.Pipeline) string {
	pr, t := e.Facts.PR, p.Trigger
	if t.BaseBranch != "" && pr.BaseRef != t.BaseBranch {
		return fmt.Sprintf("base branch is %q, not %q", pr.BaseRef, t.BaseBranch)
	}
	if t.Author != "" && !strings.EqualFold(pr.Author, t.Author) {
		return fmt.Sprintf("author is %q, not %q", pr.Author, t.Author)
	}
	return ""
}

// stateUnmet says which of the states the trigger waits for (its labels, draft) the
// subject is not in, or "".
func stateUnmet(e *core.Eval, p *lang.Pipeline) string {
	pr, t := e.Facts.PR, p.Trigger
	for _, l := range t.Labels {
		if !pr.HasLabel(l) {
			return fmt.Sprintf("label %q is missing", l)
		}
	}
	if t.Draft != nil && pr.Draft != *t.Draft {
		return fmt.Sprintf("draft is %t", pr.Draft)
	}
	return ""
}

// ifRefused evaluates p's trigger `if` (when it has one) over the event as the facts
// describe it: `trigger.pull_request.*` (TriggerEnv), `trigger.action` (the action of the
// trigger's event, "opened" for pull_request.opened), `trigger.sender.login` (who sent the
// event, when this is the trigger's own event or a start by hand; null for a late start),
// `trigger.comment` ({id, body, user: {login}} of the comment an issue_comment event names,
// as the facts read it; null otherwise) and the `github` root. The pipeline starts only when
// the expression gives true: false, anything that is not a boolean, and an error all keep
// it from starting, and why is returned (loud for an error, which the job log always
// shows). As a trigger is level-triggered, a later event evaluates it again.
func ifRefused(e *core.Eval, p *lang.Pipeline, in model.Input, onEvent bool) (why string, loud bool) {
	x := p.Trigger.If
	if x == nil {
		return "", false
	}
	ok, err := x.Bool(ifEnv(e, p, in, onEvent))
	switch {
	case err != nil:
		return fmt.Sprintf("its trigger \"if\" at %s could not be evaluated: %v", x.Pos, err), true
	case !ok:
		return fmt.Sprintf("its trigger \"if\" (%s) at %s is false", x.Src, x.Pos), false
	}
	return "", false
}

func ifEnv(e *core.Eval, p *lang.Pipeline, in model.Input, onEvent bool) lang.Env {
	trig := model.TriggerEnv(e.Facts)
	if _, action, ok := strings.Cut(p.Trigger.Event, "."); ok {
		trig["action"] = action
	}
	var sender any
	if onEvent && in.Actor != "" {
		sender = map[string]any{"login": in.Actor}
	}
	trig["sender"] = sender
	trig["comment"] = nil
	if c := e.Facts.PR.Comment(in.CommentID); onEvent && c != nil && !c.Disowned() { // someone else's words are not its author's
		trig["comment"] = map[string]any{"id": c.ID, "body": c.Body, "user": map[string]any{"login": c.Author}}
	}
	return lang.Env{"trigger": trig, "github": model.FactsEnv(e.Facts)}
}
