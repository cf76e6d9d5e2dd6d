package engine

import (
	"fmt"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// A dispatch whose outcome is unknown — its invocation ended without recording one, or
// GitHub did not answer it (Outcome.Unknown) — may have started the agent. It is never
// sent again blindly: what GitHub shows of it is looked at first, by its kind, and it is
// sent again only when that shows it certainly absent.
//
//   - comment: the comment carrying its marker (Facts.PR.Posted);
//   - label: the label on the subject (Facts.PR.Labels);
//   - workflow: the workflow's runs started by a workflow_dispatch since it was asked
//     for, whose display title (the agent workflow's run-name) names its run, stage and
//     attempt; a run created since whose title names no attempt may be it, so it is then
//     not certainly absent (Facts.Dispatches, which the caller reads);
//   - assign: the assignee on the subject (Facts.Dispatches);
//   - repository_dispatch: it leaves nothing to look at, so it is taken as performed.
//
// What shows it performed settles it at once; otherwise nothing is decided while it may
// still be in flight (Intent.Until). After that, absent → asked for again (Try + 1);
// nothing to tell → taken as performed, never sent twice, and the status says so; a
// look-up that failed → the run keeps waiting and the next event looks again, until
// MaxIntentLease after the dispatch, when it is taken as performed too.

// DispatchTrace is what GitHub shows of a dispatch the state holds an intent of, as the
// caller looked it up (Facts.Dispatches).
type DispatchTrace struct {
	// Seen: GitHub shows it performed; RunID is the workflow run it started, if known.
	Seen  bool
	RunID int64
	// Unsure: what GitHub shows cannot tell whether it was performed.
	Unsure bool
	// Why says what was looked at and what it showed, for the log and the status.
	Why string
	// Err says why the look-up failed: nothing is decided on it.
	Err string
}

// trace is what dispatchTrace makes of a dispatch.
type trace int

const (
	traceAbsent trace = iota // certainly not performed
	traceSeen                // performed
	traceUnsure              // nothing tells
	traceUnread              // the look-up failed or was not made
)

// dispatchTarget is what a dispatch effect names that a look-up finds it by: its workflow
// file, its label or its assignee.
func dispatchTarget(eff Effect) string {
	switch {
	case eff.Dispatch == lang.DispatchWorkflow:
		return eff.Workflow
	case eff.Dispatch == lang.DispatchLabel && len(eff.Labels) > 0:
		return eff.Labels[0]
	case eff.Dispatch == lang.DispatchAssign && len(eff.Assignees) > 0:
		return eff.Assignees[0]
	}
	return ""
}

// dispatchTrace says what the facts show of the dispatch of intent it of agent stage
// stage, the workflow run it started (when known), and why.
func (e *eval) dispatchTrace(stage *lang.Stage, it Intent) (trace, int64, string) {
	kind := it.Dispatch
	if kind == "" {
		if ag := e.cfg.Agent(stage.Agent); ag != nil {
			kind = ag.Dispatch
		}
	}
	pr := e.facts.PR
	switch kind {
	case lang.DispatchComment:
		if contains(pr.Posted, it.Key) {
			return traceSeen, 0, "the comment carrying its marker exists"
		}
		return traceAbsent, 0, "the comment carrying its marker is not there"
	case lang.DispatchLabel:
		if it.Target != "" && pr.HasLabel(it.Target) {
			return traceSeen, 0, fmt.Sprintf("label %q is on #%d", it.Target, pr.Number)
		}
		if it.Target != "" {
			return traceAbsent, 0, fmt.Sprintf("label %q is not on #%d", it.Target, pr.Number)
		}
	case lang.DispatchRepositoryDispatch:
		return traceUnsure, 0, "a repository_dispatch leaves nothing on GitHub to look at"
	}
	if it.Target == "" {
		return traceUnsure, 0, "its intent names nothing to look for"
	}
	tr, ok := e.facts.Dispatches[it.Key]
	switch {
	case !ok:
		return traceUnread, 0, "it was not looked up"
	case tr.Err != "":
		return traceUnread, 0, "looking it up failed: " + tr.Err
	case tr.Seen:
		return traceSeen, tr.RunID, tr.Why
	case tr.Unsure:
		return traceUnsure, 0, tr.Why
	}
	return traceAbsent, 0, tr.Why
}

// reconcileDispatch settles the dispatch intent of an agent stage found in the state.
func (e *eval) reconcileDispatch(run *Run, stage *lang.Stage, it Intent) {
	sr := run.Stages[it.Stage]
	if !run.At(it.Stage) || sr == nil || sr.Attempt != it.Attempt {
		run.Intents = dropIntent(run.Intents, it.Key)
		e.logf("run %s: intent %s: the run has moved on from it; dropped", run.ID, it.Key)
		return
	}
	if o, ok := e.outcome(it.Key); ok {
		e.settleDispatch(run, stage, o)
		return
	}
	at := it.At.UTC().Format(time.RFC3339)
	seen, runID, why := e.dispatchTrace(stage, it)
	switch {
	case seen == traceSeen:
		e.logf("run %s: %s asked for at %s was performed: %s", run.ID, it.Key, at, why)
		e.settleDispatch(run, stage, Outcome{Key: it.Key, WorkflowRun: runID})
		return
	case e.now.Before(it.inFlightUntil()):
		e.inFlight(run, it)
		return
	case seen == traceAbsent:
		run.Intents = dropIntent(run.Intents, it.Key)
		e.unknown[it.Key] = it
		e.logf("run %s: %s asked for at %s was not performed (%s), and the invocation that asked for it has ended", run.ID, it.Key, at, why)
		return
	case seen == traceUnread && e.now.Before(it.At.Add(MaxIntentLease)):
		// Never sent again on a failed look-up: it may have been performed.
		sr.Message = fmt.Sprintf("agent %s: whether the dispatch of %s reached GitHub is not known yet (%s); looking again on the next event, and not sending it again meanwhile",
			stage.Agent, it.At.UTC().Format("2006-01-02 15:04 UTC"), why)
		e.inFlight(run, it)
		e.logf("run %s: %s", run.ID, sr.Message)
		return
	}
	run.Intents = dropIntent(run.Intents, it.Key)
	run.Applied = appendOnce(run.Applied, it.Key)
	sr.Message = fmt.Sprintf("agent %s: whether the dispatch of %s reached GitHub is not known (%s); it is not sent twice: waiting for the report, or `/pipeline retry`",
		stage.Agent, it.At.UTC().Format("2006-01-02 15:04 UTC"), why)
	e.logf("run %s: %s", run.ID, sr.Message)
}
