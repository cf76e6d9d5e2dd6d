package core

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Checks that take a group (`from`) read it from Facts.Groups; its teams' members from
// Facts.TeamMembers, which the shell reads for the gates runs are at (PeopleNeeded). A team
// not read counts no one: the check says so and fails closed.

// FactsForGates returns the facts with the config's groups set, for checks that read them.
// The facts passed to Step are not changed.
func (e *Eval) FactsForGates() *model.Facts {
	if len(e.Cfg.Groups) == 0 || e.Facts.Groups != nil {
		return e.Facts
	}
	f := *e.Facts
	f.Groups = make(map[string]*lang.Group, len(e.Cfg.Groups))
	for _, g := range e.Cfg.Groups {
		f.Groups[g.Name] = g
	}
	e.Facts = &f
	return e.Facts
}
