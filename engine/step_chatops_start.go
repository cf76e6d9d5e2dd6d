package engine

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/manual"
	"github.com/org/pipeline-action/engine/internal/trigger"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/markdown"
)

// startWindow is how long after it was written a `/pipeline start` is acted on: an older
// one the action never saw (it was written before the action was set up, or the state that
// had seen it was lost) would start work nobody asked for today.
const startWindow = 24 * time.Hour

// startsWaiting reports whether a `/pipeline start`, `enable` or `disable` waits to be
// acted on: commands are read even when no run is open, for those.
func (e *eval) startsWaiting() bool {
	for _, c := range e.Facts.PR.Comments {
		if c.ID > e.St.CommandsSeen && !c.Viewer {
			if verb, _, ok := model.ParseCommand(c.Body); ok && core.ActsAlone(verb) {
				return true
			}
		}
	}
	return false
}

// commandStart starts pipeline name on the subject for c's author, who may use commands
// (command has checked): the manual start the designs' pipelines have besides their
// triggers. It replies with the run it started, or why it started none.
func (e *eval) commandStart(c model.IssueComment, name string) {
	if !c.CreatedAt.IsZero() && e.Now.Sub(c.CreatedAt) > startWindow {
		e.Logf("comment %d: /pipeline start written %s ago, more than %s; not acted on", c.ID, e.Now.Sub(c.CreatedAt).Round(time.Minute), startWindow)
		return
	}
	p, why := manual.Refused(e.Eval, name)
	if name == "" {
		why = "name the pipeline: `/pipeline start <pipeline>`"
	}
	if why != "" {
		e.Logf("comment %d: /pipeline start %s by %s: %s; nothing started", c.ID, core.OneWord(name), c.Author, why)
		e.Reply(c, fmt.Sprintf("`/pipeline start`: %s. Nothing was started.", why))
		return
	}
	// The command is the comment that starts it: a trigger's `if` reads it as trigger.comment.
	in := model.Input{Key: fmt.Sprintf("comment-%d", c.ID), Event: "issue_comment.created", Actor: c.Author, CommentID: c.ID}
	if no := e.start(p, in, trigger.StartByHand, time.Time{}, "started by /pipeline start by "+c.Author); no != "" {
		e.Reply(c, fmt.Sprintf("`/pipeline start`: pipeline %s does not run here: %s. Nothing was started.", p.Name, markdown.InertInline(no)))
		return
	}
	e.Reply(c, fmt.Sprintf("Started pipeline %s: run %s.", p.Name, e.St.Runs[len(e.St.Runs)-1].ID))
}

// dispatchStart starts the pipeline a workflow_dispatch of the action's workflow names
// (inputs pipeline and number) on the subject, for a dispatcher with the chat-ops
// permission; the job log says why it started none.
func (e *eval) dispatchStart(in model.Input) {
	if in.Event != "workflow_dispatch" || in.Pipeline == "" {
		return
	}
	p, why := manual.DispatchRefused(e.Eval, in)
	if why != "" {
		e.Logf("workflow_dispatch by %s: pipeline %s not started: %s", in.Actor, core.OneWord(in.Pipeline), why)
		return
	}
	e.start(p, model.Input{Key: in.Key, Event: in.Event, Actor: in.Actor}, trigger.StartByHand, time.Time{}, "started by a workflow_dispatch by "+in.Actor)
}

// commentRefused says why this event, a comment, may not start p, whose trigger is a
// comment, or "" (internal/manual).
func (e *eval) commentRefused(p *lang.Pipeline, in model.Input, onEvent bool) string {
	if !onEvent || p.Trigger.Event != "issue_comment.created" {
		return ""
	}
	return manual.CommentRefused(e.Eval, in)
}
