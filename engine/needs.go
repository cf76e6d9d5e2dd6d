package engine

import (
	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/people"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// PeopleNeeded says which teams and permissions Step needs the facts to tell for st on
// facts f: the shell reads them before it evaluates.
func PeopleNeeded(cfg *lang.Config, st *model.State, f *model.Facts) model.Needs {
	return people.Needed(cfg, st, f)
}

// ReactionNeeds says which permissions the reactions and chat-ops of in need the facts to
// tell, before Step answers in.
func ReactionNeeds(cfg *lang.Config, st *model.State, in model.Input) model.Needs {
	return core.ReactionNeeds(cfg, st, in)
}
