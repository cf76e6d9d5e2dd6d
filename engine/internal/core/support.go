package core

import (
	"fmt"

	"github.com/org/pipeline-action/engine/lang"
)

// The language loads in full, but Step executes only part of it. These functions name
// the first construct a pipeline or stage uses that Step cannot execute yet, so that a
// run stops there loudly ("not supported yet: … at file:line") instead of skipping it.

// executedActions are the actions an action stage can perform today.
var executedActions = map[string]bool{
	lang.ActionMergePR: true, lang.ActionAddLabel: true, lang.ActionRemoveLabel: true, lang.ActionComment: true,
	lang.ActionLabel: true, lang.ActionCloseIssue: true, lang.ActionCreateIssue: true, lang.ActionNotify: true,
	lang.ActionRequestReviewers: true, lang.ActionAssign: true, lang.ActionSetVariable: true, lang.ActionSetShared: true,
	lang.ActionUpdateBranch: true,
}

// UnsupportedPipeline names what p uses at the pipeline level that Step cannot execute.
func UnsupportedPipeline(p *lang.Pipeline) string {
	at := p.Pos.String()
	switch {
	case p.Scope != "" && p.Scope != lang.ScopeSinglePR && p.Scope != lang.ScopeIssue && p.Scope != lang.ScopeMultiPR:
		return fmt.Sprintf("scope %q of pipeline %q at %s", p.Scope, p.Name, at)
	}
	return ""
}

// UnsupportedStage names what s, of a type Step executes (engine's stageTypes), uses
// that Step cannot execute, or "".
func UnsupportedStage(s *lang.Stage) string {
	at := s.Pos.String()
	if s.Type == lang.StageParallel {
		if what := unsupportedParallel(s); what != "" { // step_parallel.go
			return what
		}
	}
	if s.Type == lang.StageAction && !executedActions[s.Action] {
		return fmt.Sprintf("action %q (stage %q at %s)", s.Action, s.ID, at)
	}
	for _, c := range s.AllConditions() {
		if u, ok := c.Eval.(lang.Unsupported); ok {
			return fmt.Sprintf("%s (condition at %s)", u.Unsupported(), c.Pos)
		}
	}
	return ""
}

// UnsupportedReaction names a reaction Step cannot execute, or "".
func UnsupportedReaction(r *lang.EventReaction) string {
	switch r.Action {
	case lang.ReactCancel, lang.ReactReevaluate, lang.ReactNotify, lang.ReactInvalidateAndRestart, lang.ReactWakeAgent:
		return ""
	}
	return fmt.Sprintf("on_events action %q for %q at %s", r.Action, r.Event, r.Pos)
}
