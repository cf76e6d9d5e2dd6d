package chatops

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/internal/dormant"
	"github.com/org/pipeline-action/engine/markdown"
	"github.com/org/pipeline-action/engine/model"
)

// startWindow is how long after it was written a `/pipeline start` is acted on: an older
// one the action never saw (it was written before the action was set up, or the state that
// had seen it was lost) would start work nobody asked for today.
const startWindow = 24 * time.Hour

// startsWaiting reports whether a `/pipeline start`, `enable` or `disable` waits to be
// acted on: commands are read even when no run is open, for those.
func startsWaiting(w World) bool {
	for _, c := range w.Facts.PR.Comments {
		if c.ID > w.St.CommandsSeen && !c.Viewer {
			if verb, _, ok := model.ParseCommand(c.Body); ok && ActsAlone(verb) {
				return true
			}
		}
	}
	return false
}

// start starts pipeline name on the subject for c's author, who may use commands: the
// manual start the designs' pipelines have besides their triggers. It replies with the
// run it started, or why it started none.
func start(k Kernel, c model.IssueComment, name string) {
	now := k.World().Now
	if !c.CreatedAt.IsZero() && now.Sub(c.CreatedAt) > startWindow {
		k.Logf("comment %d: /pipeline start written %s ago, more than %s; not acted on", c.ID, now.Sub(c.CreatedAt).Round(time.Minute), startWindow)
		return
	}
	p, why := k.Startable(name)
	if name == "" {
		why = "name the pipeline: `/pipeline start <pipeline>`"
	}
	if why != "" {
		k.Logf("comment %d: /pipeline start %s by %s: %s; nothing started", c.ID, markdown.OneWord(name), c.Author, why)
		reply(k, c, fmt.Sprintf("`/pipeline start`: %s. Nothing was started.", why))
		return
	}
	// The command is the comment that starts it: a trigger's `if` reads it as trigger.comment.
	in := model.Input{Key: fmt.Sprintf("comment-%d", c.ID), Event: "issue_comment.created", Actor: c.Author, CommentID: c.ID}
	if no := k.Start(p, in, "started by /pipeline start by "+c.Author); no != "" {
		reply(k, c, fmt.Sprintf("`/pipeline start`: pipeline %s does not run here: %s. Nothing was started.", p.Name, markdown.InertInline(no)))
		return
	}
	runs := k.World().St.Runs
	reply(k, c, fmt.Sprintf("Started pipeline %s: run %s.", p.Name, runs[len(runs)-1].ID))
}

func enable(k Kernel, c model.IssueComment, name string)  { setEnabled(k, c, name, true) }
func disable(k Kernel, c model.IssueComment, name string) { setEnabled(k, c, name, false) }

// setEnabled lets pipeline name's trigger start it on the subject (on), or not.
func setEnabled(k Kernel, c model.IssueComment, name string, on bool) {
	w := k.World()
	verb := model.CmdDisable
	if on {
		verb = model.CmdEnable
	}
	text := "/pipeline " + verb
	if name != "" {
		text += " " + markdown.OneWord(name)
	}
	k.Logf("comment %d: %s by %s", c.ID, text, c.Author)
	reply(k, c, dormant.Command(w.Cfg, w.St, name, on))
}

// Dispatch starts the pipeline a workflow_dispatch of the action's workflow names (inputs
// pipeline and number) on the subject, for a dispatcher with the chat-ops permission
// today; the job log says why it started none.
func Dispatch(k Kernel, in model.Input) {
	if in.Event != "workflow_dispatch" || in.Pipeline == "" {
		return
	}
	p, why := k.Dispatchable(in)
	if why != "" {
		k.Logf("workflow_dispatch by %s: pipeline %s not started: %s", in.Actor, markdown.OneWord(in.Pipeline), why)
		return
	}
	k.Start(p, model.Input{Key: in.Key, Event: in.Event, Actor: in.Actor}, "started by a workflow_dispatch by "+in.Actor)
}
