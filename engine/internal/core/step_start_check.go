package core

import (
	"fmt"
	"slices"
	"strings"

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

// IsApp reports whether login is an app's ("<slug>[bot]").
func IsApp(login string) bool { return isApp(login) }

// IsTriggerEvent reports whether the event is the one p's trigger waits for: its event,
// and for `pull_request.labeled`/`issues.labeled` with labels, the adding of one of those
// labels. Another label added to a subject that carries them already satisfies nothing:
// it is at most the occasion of a late start, which counts only a trigger that began to
// hold after the pipeline's definition. An event that does not say its label is not one.
func IsTriggerEvent(p *lang.Pipeline, in Input) bool {
	t := p.Trigger
	if t.Event == "" || t.Event != in.Event {
		return false
	}
	if strings.HasSuffix(t.Event, ".labeled") && len(t.Labels) > 0 {
		return in.Label != "" && slices.ContainsFunc(t.Labels, func(l string) bool { return lang.SameLabel(l, in.Label) })
	}
	return true
}

// StartRefused says why a run of p may not start on the subject now, or "": every start
// of a pipeline's run — on its trigger's event, late, by `/pipeline start`, by a
// workflow_dispatch — goes through it. A start by hand stands in for the trigger's event
// and the state it waits for (its labels, draft), not for which subjects the pipeline is
// for: the base branch and author its trigger names must match (a run on another would be
// cancelled by the next event, after acting in this one), and its `if` must hold, with
// whoever started it as `trigger.sender`. loud says the reason is worth the job log even
// for a late start (an `if` that cannot be evaluated).
func (e *Eval) StartRefused(p *lang.Pipeline, in Input, kind StartKind) (why string, loud bool) {
	pr := e.Facts.PR
	if pr.State != PROpen && !ClosingTrigger(p) {
		return fmt.Sprintf("the subject is %s", pr.State), false
	}
	if why := e.mustMatch(p); why != "" {
		return why, false
	}
	if kind != StartByHand {
		if why := e.stateUnmet(p); why != "" {
			return why, false
		}
	}
	return e.triggerIfRefused(p, in, kind != StartLate)
}

// mustMatch says which of the trigger's conditions that must keep holding for as long as
// a run goes on (NoLongerMatches) the subject does not meet, or "".
func (e *Eval) mustMatch(p *lang.Pipeline) string {
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
func (e *Eval) stateUnmet(p *lang.Pipeline) string {
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
