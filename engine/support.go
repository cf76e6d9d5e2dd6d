package engine

import (
	"fmt"
)

// The language loads in full, but Step executes only part of it. These functions name
// the first construct a pipeline or stage uses that Step cannot execute yet, so that a
// run stops there loudly ("not supported yet: … at file:line") instead of skipping it.

// executedActions are the actions an action stage can perform today.
var executedActions = map[string]bool{
	ActionMergePR: true, ActionAddLabel: true, ActionRemoveLabel: true, ActionComment: true,
	ActionLabel: true, ActionCloseIssue: true, ActionCreateIssue: true, ActionNotify: true,
	ActionRequestReviewers: true, ActionAssign: true, ActionSetVariable: true, ActionSetShared: true,
	ActionUpdateBranch: true,
}

// unsupportedPipeline names what p uses at the pipeline level that Step cannot execute.
func unsupportedPipeline(p *Pipeline) string {
	at := p.Pos.String()
	switch {
	case p.Scope != "" && p.Scope != ScopeSinglePR && p.Scope != ScopeIssue && p.Scope != ScopeMultiPR:
		return fmt.Sprintf("scope %q of pipeline %q at %s", p.Scope, p.Name, at)
	}
	return ""
}

// unsupportedStage names what s uses that Step cannot execute, or "".
func unsupportedStage(s *Stage) string {
	at := s.Pos.String()
	switch s.Type {
	case StageGate, StageAction, StageDelay, StageWebhook, StagePipeline, StageHuman, StageAgent:
	case StageParallel:
		if what := unsupportedParallel(s); what != "" { // step_parallel.go
			return what
		}
	default:
		return fmt.Sprintf("stage type %q (stage %q at %s)", s.Type, s.ID, at)
	}
	if s.Type == StageAction && !executedActions[s.Action] {
		return fmt.Sprintf("action %q (stage %q at %s)", s.Action, s.ID, at)
	}
	for _, c := range s.AllConditions() {
		if u, ok := c.Eval.(Unsupported); ok {
			return fmt.Sprintf("%s (condition at %s)", u.Unsupported(), c.Pos)
		}
	}
	return ""
}

// unsupportedReaction names a reaction Step cannot execute, or "".
func unsupportedReaction(r *EventReaction) string {
	switch r.Action {
	case ReactCancel, ReactReevaluate, ReactNotify, ReactInvalidateAndRestart, ReactWakeAgent:
		return ""
	}
	return fmt.Sprintf("on_events action %q for %q at %s", r.Action, r.Event, r.Pos)
}
