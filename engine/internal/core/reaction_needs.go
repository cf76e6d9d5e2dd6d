package core

import (
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// ReactsOnPermission reports whether reaction r acts only on events by people with the
// chat-ops permission: wake_agent always; invalidate_and_restart except on a push, which
// makes approvals stale whoever pushed.
func ReactsOnPermission(r *lang.EventReaction) bool {
	return r.Action == lang.ReactWakeAgent || r.Action == lang.ReactInvalidateAndRestart && r.Event != "pull_request.synchronize"
}

// ReactionNeeds is what the reactions to in need read: the permission of its actor, when a
// run on st reacts to in.Event with a reaction that needs it (ReactsOnPermission), or when
// in asks for a start (startNeeds).
func ReactionNeeds(cfg *lang.Config, st *model.State, in model.Input) model.Needs {
	if cfg == nil || st == nil || in.Actor == "" || isApp(in.Actor) {
		return model.Needs{}
	}
	if n := startNeeds(cfg, in); !n.Empty() {
		return n
	}
	for _, run := range st.Runs {
		if run.Status.Final() {
			continue
		}
		if p := cfg.PipelineFor(run); p != nil {
			if r := p.Reaction(in.Event); r != nil && ReactsOnPermission(r) {
				return model.Needs{Permissions: []string{in.Actor}}
			}
		}
	}
	return model.Needs{}
}
