package load

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

var (
	actions = []string{lang.ActionMergePR, lang.ActionAddLabel, lang.ActionRemoveLabel, lang.ActionComment, lang.ActionCloseIssue,
		lang.ActionCreateIssue, lang.ActionLabel, lang.ActionNotify, lang.ActionRequestReviewers, lang.ActionAssign, lang.ActionSetVariable, lang.ActionSetShared, lang.ActionUpdateBranch}
	mergeMethods  = []string{"merge", "squash", "rebase"}
	updateMethods = []string{lang.UpdateMerge, lang.UpdateRebase}
	// actionConfigKeys are the keys of each action's config; configRequired says which
	// actions cannot do without one.
	actionConfigKeys = map[string][]string{
		lang.ActionMergePR:          {"method", "delete_branch", "pr_number", "when_behind", "commit_title", "commit_message", "update_method"},
		lang.ActionUpdateBranch:     {"update_method"},
		lang.ActionAddLabel:         {"label", "labels"},
		lang.ActionRemoveLabel:      {"label", "labels"},
		lang.ActionComment:          {"body", "target"},
		lang.ActionCloseIssue:       {"issue"},
		lang.ActionCreateIssue:      {"title", "body", "labels"},
		lang.ActionLabel:            {"add", "remove"},
		lang.ActionNotify:           {"target", "message"},
		lang.ActionRequestReviewers: {"reviewers", "teams", "group"},
		lang.ActionAssign:           {"assignees", "group"},
		lang.ActionSetVariable:      {"name", "value", "pipeline", "workflow"},
		lang.ActionSetShared:        {"name", "value"},
	}
)

// actionLoader loads the keys of action stages and branches: which action, and its
// config.
type actionLoader struct{ *stageLoader }

// action loads the keys of an action stage (or branch): the action, its config and
// transitions.
func (sl actionLoader) action(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	if e, ok := f["on_success"]; ok {
		sl.target(e, &s.OnSuccess)
	}
	if e, ok := f["on_failure"]; ok {
		sl.target(e, &s.OnFailure)
	}
	e, ok := f["action"]
	if !ok {
		sl.errorf(n, kindKey, "missing required key %q in %s; expected one of %s", "action", where, lang.QuoteList(actions))
		return
	}
	a, ok := sl.str(e)
	if !ok {
		return
	}
	if !slices.Contains(actions, a) {
		if sug := lang.Suggest(a, actions); sug != "" {
			sl.errorf(e.val, kindValue, "unknown action %q; did you mean %q?", a, sug)
		} else {
			sl.errorf(e.val, kindValue, "unknown action %q; expected one of %s", a, lang.QuoteList(actions))
		}
		return
	}
	s.Action = a
	for _, k := range []string{"on_conflict", "on_ci_failure"} {
		x, ok := f[k]
		if !ok {
			continue
		}
		if a != lang.ActionMergePR {
			sl.errorf(x.key, kindKey, "%q applies only to action %q, not %q", k, lang.ActionMergePR, a)
			continue
		}
		if k == "on_conflict" {
			s.OnConflict = sl.rule(x, where, handlerKeys)
		} else {
			s.OnCIFailure = sl.rule(x, where, ciFailureKeys)
		}
	}
	if a == lang.ActionMergePR {
		s.Config.Method = "merge"
	}
	c, hasConfig := f["config"]
	if !hasConfig {
		if configNeeds[a] != nil {
			sl.errorf(n, kindKey, "missing required key %q in %s; action %q needs %s", "config", where, a, requiredConfig(a))
		}
		return
	}
	cfgWhere := "config of " + where
	cf := sl.fields(c.val, "config", section{where: cfgWhere, known: actionConfigKeys[a]})
	if c.val.Kind != yaml.MappingNode {
		return
	}
	sl.actionConfig(c, cf, a, &s.Config, cfgWhere)
}

// configNeeds are the keys of which the config of an action must hold one.
var configNeeds = map[string][]string{
	lang.ActionAddLabel:         {"label", "labels"},
	lang.ActionRemoveLabel:      {"label", "labels"},
	lang.ActionComment:          {"body"},
	lang.ActionCreateIssue:      {"title"},
	lang.ActionLabel:            {"add", "remove"},
	lang.ActionNotify:           {"target"},
	lang.ActionRequestReviewers: {"reviewers", "teams", "group"},
	lang.ActionAssign:           {"assignees", "group"},
	lang.ActionSetVariable:      {"name"},
	lang.ActionSetShared:        {"name"},
}

// requiredConfig says what the config of action a must hold, for messages:
// "\"body\"", "\"label\" or \"labels\"".
func requiredConfig(a string) string {
	keys := configNeeds[a]
	s := ""
	for i, k := range keys {
		switch {
		case i == 0:
		case i == len(keys)-1:
			s += " or "
		default:
			s += ", "
		}
		s += fmt.Sprintf("%q", k)
	}
	return s
}

// labelList reads a list of labels, none empty.
func (sl actionLoader) labelList(e entry) []string {
	ls, ok := sl.strs(e)
	if !ok {
		return nil
	}
	sl.literalLabels(e)
	if len(ls) == 0 {
		sl.errorf(e.val, kindValue, "%q must list at least one label", e.key.Value)
	}
	return sl.nonEmpty(e, ls)
}
