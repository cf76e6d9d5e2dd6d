package load

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// dispatchKinds are the ways to dispatch an agent, and the key each one needs.
var (
	dispatchKinds = []string{lang.DispatchWorkflow, lang.DispatchRepositoryDispatch, lang.DispatchComment, lang.DispatchLabel, lang.DispatchAssign}
	dispatchKeys  = map[string][]string{
		lang.DispatchWorkflow:           {"workflow", "ref"},
		lang.DispatchRepositoryDispatch: {"event_type"},
		lang.DispatchComment:            {"body", "listener"},
		lang.DispatchLabel:              {"label", "listener"},
		lang.DispatchAssign:             {"assignee"},
	}
)

// agents loads the top-level `agents:` into l.cfg.Agents.
func (l *loader) agents(e entry) {
	for _, ae := range l.entries(e.val, "agents", `"agents"`) {
		if !l.name(ae.key, "agent") || !l.define(l.agentNames, "agent", ae.key) {
			continue
		}
		if a := l.agent(ae); a != nil {
			l.cfg.Agents = append(l.cfg.Agents, a)
		}
	}
}

// agent loads one entry of `agents:`.
func (l *loader) agent(e entry) *lang.Agent {
	a := &lang.Agent{Name: e.key.Value, Pos: l.pos(e.key)}
	where := fmt.Sprintf("agent %q", a.Name)
	known := []string{"dispatch", "login"}
	for _, k := range dispatchKinds {
		for _, key := range dispatchKeys[k] {
			if !slices.Contains(known, key) {
				known = append(known, key)
			}
		}
	}
	f := l.fields(e.val, a.Name, section{where: where, known: known})
	if e.val.Kind != yaml.MappingNode {
		return nil
	}
	d, ok := f["dispatch"]
	if !ok {
		l.errorf(e.val, kindKey, "missing required key %q in %s; expected one of %s", "dispatch", where, lang.QuoteList(dispatchKinds))
		return nil
	}
	if a.Dispatch, ok = l.enum(d, dispatchKinds); !ok {
		return nil
	}
	own := dispatchKeys[a.Dispatch]
	for k, v := range f {
		if k != "dispatch" && k != "login" && !slices.Contains(own, k) {
			l.errorf(v.key, kindKey, "key %q does not apply to dispatch %q; it takes %s", k, a.Dispatch, lang.QuoteList(own))
		}
	}
	required := own[0]
	v, ok := f[required]
	if !ok {
		l.errorf(e.val, kindKey, "missing required key %q in %s; dispatch %q needs it", required, where, a.Dispatch)
		return nil
	}
	s, ok := l.str(v)
	if !ok {
		return nil
	}
	if s == "" {
		l.errorf(v.val, kindValue, "%q must not be empty", required)
		return nil
	}
	switch a.Dispatch {
	case lang.DispatchWorkflow:
		if !strings.HasSuffix(s, ".yml") && !strings.HasSuffix(s, ".yaml") {
			l.errorf(v.val, kindValue, "%q must name a workflow file ending in \".yml\" or \".yaml\", not %q", "workflow", s)
		}
		a.Workflow = s
		if r, ok := f["ref"]; ok {
			a.Ref, _ = l.str(r)
		}
	case lang.DispatchRepositoryDispatch:
		a.EventType = s
	case lang.DispatchComment:
		a.Body = s
	case lang.DispatchLabel:
		a.Label = s
	case lang.DispatchAssign:
		a.Assignee = s
	}
	if v, ok := f["listener"]; ok {
		a.Listener, _ = l.enum(v, listenerKinds)
	}
	if v, ok := f["login"]; ok {
		a.Login = l.agentLogin(v)
	}
	return a
}

// listenerKinds are what may receive a comment or label dispatch (Agent.Listener).
var listenerKinds = []string{lang.ListenerWorkflow, lang.ListenerApp}

// groups loads the top-level `groups:` into l.cfg.Groups.
func (l *loader) groups(e entry) {
	for _, ge := range l.entries(e.val, "groups", `"groups"`) {
		if !l.name(ge.key, "group") || !l.define(l.groupNames, "group", ge.key) {
			continue
		}
		if ge.key.Value == lang.FromCodeOwners {
			l.errorf(ge.key, kindValue, "%q is not a group's name: `from: %s` names the code owners of the changed files", ge.key.Value, lang.FromCodeOwners)
			continue
		}
		if g := l.group(ge); g != nil {
			l.cfg.Groups = append(l.cfg.Groups, g)
		}
	}
}

// group loads one entry of `groups:`: users and teams (org/slug), at least one.
func (l *loader) group(e entry) *lang.Group {
	g := &lang.Group{Name: e.key.Value, Pos: l.pos(e.key)}
	where := fmt.Sprintf("group %q", g.Name)
	f := l.fields(e.val, g.Name, section{where: where, known: []string{"users", "teams"}})
	if e.val.Kind != yaml.MappingNode {
		return nil
	}
	if u, ok := f["users"]; ok {
		users, _ := l.strs(u)
		g.Users = l.nonEmpty(u, users)
	}
	if t, ok := f["teams"]; ok {
		teams, _ := l.strs(t)
		for _, team := range teams {
			org, slug, ok := strings.Cut(team, "/")
			if !ok || org == "" || slug == "" || strings.Contains(slug, "/") {
				l.errorf(t.val, kindValue, "teams must be written as %q, not %q", "org/team-slug", team)
				continue
			}
			g.Teams = append(g.Teams, team)
		}
	}
	if len(g.Users)+len(g.Teams) == 0 {
		l.errorf(e.val, kindValue, "%s has no members; list %q or %q", where, "users", "teams")
		return nil
	}
	return g
}

// name checks that key k is a valid name for what ("agent").
func (l *loader) name(k *yaml.Node, what string) bool {
	if validID().MatchString(k.Value) {
		return true
	}
	l.errorf(k, kindID, "invalid %s name %q; use lowercase letters, digits, %q and %q, starting with a letter or digit",
		what, k.Value, "-", "_")
	return false
}
