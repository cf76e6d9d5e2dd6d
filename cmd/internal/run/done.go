package run

import (
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine"
)

// doneGuard holds back effects on a subject that an effect of this invocation merged or
// closed. The engine already cancels the other runs of the event once the subject is done;
// this is the second line: whatever asks for it, an effect on the
// subject from a run other than the one that made it done (and its sub-pipelines) is not
// sent. A merge whose answer was lost counts as done: it may have happened.
type doneGuard struct {
	number int    // the subject's number
	by     string // the top-level run whose merge or close of the subject was performed
	what   string // merged | closed
}

// note records e when it merged or closed the subject, or may have.
func (g *doneGuard) note(st *model.State, e model.Effect, o model.Outcome) {
	if g.by != "" || (o.Err != "" && !o.Unknown) || o.Queued || e.Repo != "" || e.Number != g.number {
		return
	}
	switch e.Kind {
	case model.EffectMerge:
		g.what = "merged"
	case model.EffectCloseIssue:
		g.what = "closed"
	default:
		return
	}
	g.by = engine.RootRun(st, e.Run)
}

// hold returns the outcome of e when it must not be sent.
func (g *doneGuard) hold(st *model.State, e model.Effect) (model.Outcome, bool) {
	if g.by == "" || !g.onSubject(e) || engine.RootRun(st, e.Run) == g.by {
		return model.Outcome{}, false
	}
	return model.Outcome{Key: e.Key, Err: fmt.Sprintf("not sent: #%d was %s in this event by run %s", g.number, g.what, g.by)}, true
}

// onSubject reports whether e acts on the subject: a webhook call and a new issue do not,
// an agent's dispatch always does (the agent is sent to work on it).
func (g *doneGuard) onSubject(e model.Effect) bool {
	switch {
	case e.Repo != "", e.Kind == model.EffectWebhook, e.Kind == model.EffectCreateIssue:
		return false
	case e.Kind == model.EffectDispatch:
		return true
	}
	return e.Number == 0 || e.Number == g.number
}
