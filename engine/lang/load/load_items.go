package load

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// itemActions are the actions a pipeline's `on_complete` and `on_error` lists may
// hold, and the keys each takes in its mapping form. Each item is a mapping of one
// action to its argument:
//
//	on_complete:
//	  - close_issue: "{{ context.pr_number | linked_issue }}"  # an issue number
//	  - comment: "Done."                                      # or {target, message}
//	  - label: needs-human                                    # or a list of labels
//	  - notify: maintainers                                   # or {target, message}
//	  - create_issue: {title, body, labels}
//	  - request_reviewers: [alice]                            # or {reviewers, teams, group}
//	  - assign: alice                                         # or {assignees, group}
var itemActions = map[string][]string{
	lang.ActionCloseIssue:       nil,
	lang.ActionComment:          {"target", "message"},
	lang.ActionLabel:            nil,
	lang.ActionNotify:           {"target", "message"},
	lang.ActionCreateIssue:      {"title", "body", "labels"},
	lang.ActionRequestReviewers: {"reviewers", "teams", "group"},
	lang.ActionAssign:           {"assignees", "group"},
	lang.ActionSetVariable:      {"name", "value", "pipeline", "workflow"},
	lang.ActionSetShared:        {"name", "value"},
}

// itemActionNames lists itemActions in a stable order, for messages.
var itemActionNames = []string{lang.ActionCloseIssue, lang.ActionComment, lang.ActionLabel, lang.ActionNotify,
	lang.ActionCreateIssue, lang.ActionRequestReviewers, lang.ActionAssign, lang.ActionSetVariable, lang.ActionSetShared}

// actionItems loads a pipeline's `on_complete` or `on_error` list.
func (l *loader) actionItems(e entry, where string) []lang.ActionItem {
	items, ok := l.items(e.val, e.key.Value)
	if !ok {
		return nil
	}
	where = fmt.Sprintf("%q of %s", e.key.Value, where)
	var out []lang.ActionItem
	for _, n := range items {
		if n.Kind != yaml.MappingNode {
			l.errorf(n, kindType, "items of %s must be mappings of one action to its argument, such as %q; not %s",
				where, "- label: needs-human", describe(n))
			continue
		}
		if len(n.Content) != 2 {
			l.errorf(n, kindValue, "each item of %s holds one action, not %d; write each as its own %q item",
				where, len(n.Content)/2, "-")
			continue
		}
		k, v := deref(n.Content[0]), deref(n.Content[1])
		if k.Kind != yaml.ScalarNode {
			l.errorf(k, kindType, "keys in %s must be strings, not %s", where, describe(k))
			continue
		}
		keys, known := itemActions[k.Value]
		if !known {
			l.unknownKey(k, section{where: where, known: itemActionNames})
			continue
		}
		if item, ok := l.actionItem(entry{key: k, val: v}, keys, where); ok {
			out = append(out, item)
		}
	}
	return out
}

// actionItem checks the argument of one item and compiles its templates.
func (l *loader) actionItem(e entry, keys []string, where string) (lang.ActionItem, bool) {
	a := e.key.Value
	item := lang.ActionItem{Pos: l.pos(e.key), Action: a}
	v := e.val
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag != "!!null":
		if a == lang.ActionCreateIssue || a == lang.ActionSetVariable || a == lang.ActionSetShared {
			l.errorf(v, kindType, "%q takes a mapping with %s, not %s", a, lang.QuoteList(keys), describe(v))
			return item, false
		}
	case v.Kind == yaml.SequenceNode:
		if a != lang.ActionLabel && a != lang.ActionRequestReviewers && a != lang.ActionAssign {
			l.errorf(v, kindType, "%q takes a string, not a list", a)
			return item, false
		}
		if _, ok := l.strs(e); !ok {
			return item, false
		}
	case v.Kind == yaml.MappingNode && keys != nil:
		before := len(l.errs)
		f := l.fields(v, a, section{where: fmt.Sprintf("%q in %s", a, where), known: keys})
		if len(l.errs) > before {
			return item, false
		}
		if need := requiredItemKey(a); need != "" {
			if _, ok := f[need]; !ok {
				l.errorf(v, kindKey, "missing required key %q in %q of %s", need, a, where)
				return item, false
			}
		}
		if a == lang.ActionSetVariable || a == lang.ActionSetShared {
			if !l.variableItem(v, f, a, where) {
				return item, false
			}
		}
		if len(f) == 0 {
			l.errorf(v, kindValue, "%q must not be empty", a)
			return item, false
		}
	default:
		switch {
		case a == lang.ActionLabel:
			l.errorf(v, kindType, "%q takes a label or a list of labels, not %s", a, describe(v))
		case keys == nil:
			l.errorf(v, kindType, "%q takes a string, not %s", a, describe(v))
		default:
			l.errorf(v, kindType, "%q takes a string or a mapping with %s, not %s", a, lang.QuoteList(keys), describe(v))
		}
		return item, false
	}
	before := len(l.errs)
	if a == lang.ActionLabel {
		l.literalLabels(e)
	}
	for i := 0; a == lang.ActionCreateIssue && v.Kind == yaml.MappingNode && i+1 < len(v.Content); i += 2 {
		if v.Content[i].Value == "labels" {
			l.literalLabels(entry{key: v.Content[i], val: v.Content[i+1]})
		}
	}
	item.Args = l.value(v, a, where)
	return item, len(l.errs) == before
}

// requiredItemKey is the key the mapping form of action a cannot do without.
func requiredItemKey(a string) string {
	switch a {
	case lang.ActionComment:
		return "message"
	case lang.ActionNotify:
		return "target"
	case lang.ActionCreateIssue:
		return "title"
	case lang.ActionSetVariable, lang.ActionSetShared:
		return "name"
	}
	return ""
}
