package agent

import (
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
)

// Trace is what the facts show of a dispatch.
type Trace int

const (
	TraceAbsent Trace = iota // certainly not performed
	TraceSeen                // performed
	TraceUnsure              // nothing tells
	TraceUnread              // the look-up failed or was not made
)

// DispatchTrace says what the facts show of the dispatch of intent it of agent stage s,
// the workflow run it started (when known), and why.
func DispatchTrace(c stage.Context, s *lang.Stage, it model.Intent) (Trace, int64, string) {
	kind := it.Dispatch
	if kind == "" {
		if ag := c.Agent(s.Agent); ag != nil {
			kind = ag.Dispatch
		}
	}
	pr := c.Facts().PR
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
		return TraceUnsure, 0, "a repository_dispatch leaves nothing on GitHub to look at"
	}
	if it.Target == "" {
		return TraceUnsure, 0, "its intent names nothing to look for"
	}
	tr, ok := c.Facts().Dispatches[it.Key]
	switch {
	case !ok:
		return TraceUnread, 0, "it was not looked up"
	case tr.Err != "":
		return TraceUnread, 0, "looking it up failed: " + tr.Err
	case tr.Seen:
		return TraceSeen, tr.RunID, tr.Why
	case tr.Unsure:
		return TraceUnsure, 0, tr.Why
	}
	return TraceAbsent, 0, tr.Why
}
