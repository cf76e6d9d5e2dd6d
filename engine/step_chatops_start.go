package engine

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/internal/core"
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
			if verb, _, ok := core.ParseCommand(c.Body); ok && core.ActsAlone(verb) {
				return true
			}
		}
	}
	return false
}

// commandStart starts pipeline name on the subject for c's author, who may use commands
// (command has checked): the manual start the designs' pipelines have besides their
// triggers. It replies with the run it started, or why it started none.
func (e *eval) commandStart(c IssueComment, name string) {
	if !c.CreatedAt.IsZero() && e.Now.Sub(c.CreatedAt) > startWindow {
		e.Logf("comment %d: /pipeline start written %s ago, more than %s; not acted on", c.ID, e.Now.Sub(c.CreatedAt).Round(time.Minute), startWindow)
		return
	}
	p := e.Cfg.Pipeline(name)
	why := ""
	switch {
	case name == "":
		why = "name the pipeline: `/pipeline start <pipeline>`"
	case p == nil:
		why = fmt.Sprintf("there is no pipeline %s", core.OneWord(name))
	case !p.HasTrigger:
		why = fmt.Sprintf("pipeline %s is a sub-pipeline: it starts from its parent's stage", p.Name)
	case !e.ScopeFits(p): // step_issue.go
		why = fmt.Sprintf("pipeline %s does not run on this kind of subject (scope %s)", p.Name, p.Scope)
	case e.Facts.PR.State != PROpen && !core.ClosingTrigger(p):
		why = fmt.Sprintf("the subject is %s", e.Facts.PR.State)
	}
	if why == "" {
		if active := e.Active(p.Name); active != nil {
			why = fmt.Sprintf("run %s of pipeline %s is still going", active.ID, p.Name)
		}
	}
	if why != "" {
		e.Logf("comment %d: /pipeline start %s by %s: %s; nothing started", c.ID, core.OneWord(name), c.Author, why)
		e.Reply(c, fmt.Sprintf("`/pipeline start`: %s. Nothing was started.", why))
		return
	}
	in := Input{Key: fmt.Sprintf("comment-%d", c.ID), Event: "issue_comment.created", Actor: c.Author}
	e.start(p, in, time.Time{}, "started by /pipeline start by "+c.Author)
	e.Reply(c, fmt.Sprintf("Started pipeline %s: run %s.", p.Name, e.St.Runs[len(e.St.Runs)-1].ID))
}
