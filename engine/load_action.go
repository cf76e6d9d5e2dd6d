package engine

import "gopkg.in/yaml.v3"

var (
	actions            = []string{ActionMergePR, ActionAddLabel, ActionRemoveLabel, ActionComment}
	unsupportedActions = []string{"close_issue", "create_issue", "label", "notify", "request_reviewers", "assign"}
	mergeMethods       = []string{"merge", "squash", "rebase"}
)

// action loads the keys of an action stage: the action, its config and transitions.
func (sl *stageLoader) action(n *yaml.Node, f map[string]entry, s *Stage, where string) {
	if e, ok := f["on_success"]; ok {
		sl.target(e, &s.OnSuccess)
	}
	if e, ok := f["on_failure"]; ok {
		sl.target(e, &s.OnFailure)
	}
	e, ok := f["action"]
	if !ok {
		sl.errorf(n, kindKey, "missing required key %q in %s; expected one of %s", "action", where, quoteList(actions))
		return
	}
	a, ok := sl.str(e)
	if !ok {
		return
	}
	switch {
	case loadContains(actions, a):
		s.Action = a
	case loadContains(unsupportedActions, a):
		sl.errorf(e.val, kindUnsupported, "not supported yet: action %q", a)
		return
	default:
		if sug := suggest(a, actions); sug != "" {
			sl.errorf(e.val, kindValue, "unknown action %q; did you mean %q?", a, sug)
		} else {
			sl.errorf(e.val, kindValue, "unknown action %q; expected one of %s", a, quoteList(actions))
		}
		return
	}
	cfgWhere := "config of " + where
	c, hasConfig := f["config"]
	if !hasConfig {
		switch a {
		case ActionAddLabel, ActionRemoveLabel:
			sl.errorf(n, kindKey, "missing required key %q in %s; action %q needs %q or %q", "config", where, a, "label", "labels")
		case ActionComment:
			sl.errorf(n, kindKey, "missing required key %q in %s; action %q needs %q", "config", where, a, "body")
		}
		s.Config.Method = "merge"
		return
	}
	switch a {
	case ActionMergePR:
		s.Config = sl.mergeConfig(c, cfgWhere)
	case ActionAddLabel, ActionRemoveLabel:
		s.Config = sl.labelConfig(c, a, cfgWhere)
	case ActionComment:
		f := sl.fields(c.val, "config", section{where: cfgWhere, known: []string{"body"}})
		b, ok := f["body"]
		if !ok {
			if c.val.Kind == yaml.MappingNode {
				sl.errorf(c.val, kindKey, "missing required key %q in %s", "body", cfgWhere)
			}
			return
		}
		if body, ok := sl.str(b); ok {
			if body == "" {
				sl.errorf(b.val, kindValue, "%q must not be empty", "body")
			}
			s.Config.Body = body
		}
	}
}

// mergeConfig loads the config of merge_pr.
func (sl *stageLoader) mergeConfig(c entry, where string) ActionConfig {
	out := ActionConfig{Method: "merge"}
	f := sl.fields(c.val, "config", section{where: where, known: []string{"method", "delete_branch"}})
	if e, ok := f["method"]; ok {
		if m, ok := sl.str(e); ok {
			if loadContains(mergeMethods, m) {
				out.Method = m
			} else if s := suggest(m, mergeMethods); s != "" {
				sl.errorf(e.val, kindValue, "%q must be one of %s, not %q; did you mean %q?", "method", quoteList(mergeMethods), m, s)
			} else {
				sl.errorf(e.val, kindValue, "%q must be one of %s, not %q", "method", quoteList(mergeMethods), m)
			}
		}
	}
	if e, ok := f["delete_branch"]; ok {
		out.DeleteBranch, _ = sl.boolean(e)
	}
	return out
}

// labelConfig loads the config of add_label and remove_label: `label:` or `labels:`.
func (sl *stageLoader) labelConfig(c entry, action, where string) ActionConfig {
	var out ActionConfig
	f := sl.fields(c.val, "config", section{where: where, known: []string{"label", "labels"}})
	if c.val.Kind != yaml.MappingNode {
		return out
	}
	one, hasOne := f["label"]
	many, hasMany := f["labels"]
	switch {
	case hasOne && hasMany:
		sl.errorf(many.key, kindKey, "use either %q or %q in %s, not both", "label", "labels", where)
	case hasOne:
		if l, ok := sl.str(one); ok {
			out.Labels = []string{l}
		}
	case hasMany:
		if ls, ok := sl.strs(many); ok {
			if len(ls) == 0 {
				sl.errorf(many.val, kindValue, "%q must list at least one label", "labels")
			}
			out.Labels = ls
		}
	default:
		sl.errorf(c.val, kindKey, "missing required key %q or %q in %s; action %q needs one", "label", "labels", where, action)
	}
	for i, l := range out.Labels {
		if l == "" {
			sl.errorf(c.val, kindValue, "label %d of %s is empty", i+1, where)
		}
	}
	return out
}
