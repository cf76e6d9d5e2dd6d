package core

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// trace is what dispatchTrace makes of a dispatch.
type trace int

const (
	TraceAbsent trace = iota // certainly not performed
	TraceSeen                // performed
	traceUnsure              // nothing tells
	TraceUnread              // the look-up failed or was not made
)

// dispatchTarget is what a dispatch effect names that a look-up finds it by: its workflow
// file, its label or its assignee.
func dispatchTarget(eff model.Effect) string {
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
func (e *Eval) DispatchTrace(stage *lang.Stage, it model.Intent) (trace, int64, string) {
	kind := it.Dispatch
	if kind == "" {
		if ag := e.Cfg.Agent(stage.Agent); ag != nil {
			kind = ag.Dispatch
		}
	}
	pr := e.Facts.PR
	switch kind {
	case lang.DispatchComment:
		if slices.Contains(pr.Posted, it.Key) {
			return TraceSeen, 0, "the comment carrying its marker exists"
		}
		return TraceAbsent, 0, "the comment carrying its marker is not there"
	case lang.DispatchLabel:
		if it.Target != "" && pr.HasLabel(it.Target) {
			return TraceSeen, 0, fmt.Sprintf("label %q is on #%d", it.Target, pr.Number)
		}
		if it.Target != "" {
			return TraceAbsent, 0, fmt.Sprintf("label %q is not on #%d", it.Target, pr.Number)
		}
	case lang.DispatchRepositoryDispatch:
		return traceUnsure, 0, "a repository_dispatch leaves nothing on GitHub to look at"
	}
	if it.Target == "" {
		return traceUnsure, 0, "its intent names nothing to look for"
	}
	tr, ok := e.Facts.Dispatches[it.Key]
	switch {
	case !ok:
		return TraceUnread, 0, "it was not looked up"
	case tr.Err != "":
		return TraceUnread, 0, "looking it up failed: " + tr.Err
	case tr.Seen:
		return TraceSeen, tr.RunID, tr.Why
	case tr.Unsure:
		return traceUnsure, 0, tr.Why
	}
	return TraceAbsent, 0, tr.Why
}
