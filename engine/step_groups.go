package engine

import "github.com/org/pipeline-action/engine/lang"

// Checks that take a group (`from`) read it from Facts.Groups; its teams' members from
// Facts.TeamMembers, which the shell reads for the gates runs are at (PeopleNeeded). A team
// not read counts no one: the check says so and fails closed.

// factsForGates returns the facts with the config's groups set, for checks that read them.
// The facts passed to Step are not changed.
func (e *eval) factsForGates() *Facts {
	if len(e.cfg.Groups) == 0 || e.facts.Groups != nil {
		return e.facts
	}
	f := *e.facts
	f.Groups = make(map[string]*lang.Group, len(e.cfg.Groups))
	for _, g := range e.cfg.Groups {
		f.Groups[g.Name] = g
	}
	e.facts = &f
	return e.facts
}
