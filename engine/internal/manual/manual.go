package manual

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
)

// CommentRefused says why the comment an issue_comment event names may not start a
// pipeline whose trigger is that event, or "". The comment is read from the facts by the
// id the event gives, and its author needs the chat-ops permission (authority.Rules.MayCommandAs):
// otherwise anyone who may comment, a reader included, would start work and agents.
func CommentRefused(e *core.Eval, in model.Input) string {
	c := e.Facts.PR.Comment(in.CommentID)
	switch {
	case c == nil:
		return fmt.Sprintf("comment %d, which the event names, is not among the comments read", in.CommentID)
	case c.Viewer:
		return fmt.Sprintf("comment %d is the action's own", c.ID)
	case c.IsBot:
		return fmt.Sprintf("comment %d is by an app (@%s)", c.ID, c.Author)
	case c.Disowned():
		return fmt.Sprintf("comment %d was last edited by @%s, not by its author", c.ID, c.EditedBy)
	}
	if why := e.Rules().MayCommandAs(c.Author); why != "" {
		return fmt.Sprintf("comment %d by @%s: %s", c.ID, c.Author, why)
	}
	return ""
}

// Refused says why pipeline name may not be started by hand on the subject, or "" and
// the pipeline: it must exist, have a trigger (a sub-pipeline starts from its parent),
// fit the subject's kind, find the subject open (unless it is triggered by closing) and
// have no run still going.
func Refused(e *core.Eval, name string) (*lang.Pipeline, string) {
	p := e.Cfg.Pipeline(name)
	switch {
	case name == "":
		return nil, "name the pipeline"
	case p == nil:
		return nil, fmt.Sprintf("there is no pipeline %s", markdown.OneWord(name))
	case !p.HasTrigger:
		return nil, fmt.Sprintf("pipeline %s is a sub-pipeline: it starts from its parent's stage", p.Name)
	case !core.Scope(e).Fits(p):
		return nil, fmt.Sprintf("pipeline %s does not run on this kind of subject (scope %s)", p.Name, p.Scope)
	case e.Facts.PR.State != model.PROpen && !core.ClosingTrigger(p):
		return nil, fmt.Sprintf("the subject is %s", e.Facts.PR.State)
	}
	if active := e.Active(p.Name); active != nil {
		return nil, fmt.Sprintf("run %s of pipeline %s is still going", active.ID, p.Name)
	}
	return p, ""
}

// DispatchRefused says why a workflow_dispatch asking to start a pipeline (in.Pipeline)
// may not start it, or "" and the pipeline: who dispatched needs the chat-ops permission
// today and is a person — a workflow holding the repository's token, an agent's included,
// may dispatch the pipelines workflow, and apps may not use commands —, and a delivery
// starts a pipeline once. The trigger's conditions are the start's own (trigger.Refused).
func DispatchRefused(e *core.Eval, in model.Input) (*lang.Pipeline, string) {
	if core.IsApp(in.Actor) {
		return nil, "it was dispatched by an app, and apps may not start pipelines"
	}
	if why := e.Rules().MayCommandAs(in.Actor); why != "" {
		return nil, why
	}
	if p := e.Cfg.Pipeline(in.Pipeline); p != nil && e.Started(p.Name, in.Key) {
		return nil, "this dispatch started it already"
	}
	return Refused(e, in.Pipeline)
}
