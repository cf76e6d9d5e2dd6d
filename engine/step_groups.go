package engine

import (
	"fmt"
	"strings"
)

// Checks that take a group (`from`) read it from Facts.Groups; its teams' members from
// Facts.TeamMembers.

// factsForGates returns the facts with the config's groups set, for checks that read them.
// The facts passed to Step are not changed.
func (e *eval) factsForGates() *Facts {
	if len(e.cfg.Groups) == 0 || e.facts.Groups != nil {
		return e.facts
	}
	f := *e.facts
	f.Groups = make(map[string]*Group, len(e.cfg.Groups))
	for _, g := range e.cfg.Groups {
		f.Groups[g.Name] = g
	}
	e.facts = &f
	return e.facts
}

// unsupportedGroupRefs names a condition of stage whose group has a team whose members the
// facts did not read (reading them is not supported yet), or "".
func (e *eval) unsupportedGroupRefs(stage *Stage) string {
	for _, c := range allConditions(stage) {
		ref, ok := c.Eval.(groupRef)
		if !ok || ref.Group() == "" {
			continue
		}
		g := e.cfg.Group(ref.Group())
		if g == nil {
			continue
		}
		for _, t := range g.Teams {
			if _, read := e.facts.TeamMembers[strings.ToLower(t)]; !read {
				return fmt.Sprintf("check %q with \"from\" group %q, which has team %s: the members of teams are not read yet (condition at %s)",
					c.Check, g.Name, t, c.Pos)
			}
		}
	}
	return ""
}
