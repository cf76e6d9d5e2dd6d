package load

import (
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// MaxLabelName is the longest label name GitHub accepts, in characters: adding a longer
// one is refused (422), so a literal one in the config is an error at load time rather
// than an action that fails on every run.
const MaxLabelName = 50

// labelKeys are the keys whose values are label names wherever they appear: an action's
// or a rule's `label`/`labels`, a gate's `label`, a human stage's `label`, a `label`
// agent's label, a condition's `labels_include`.
var labelKeys = map[string]bool{"label": true, "labels": true, "labels_include": true}

// freeKeys hold the user's own data (a run's context, a webhook's body, a variable's value),
// where a key named label is theirs, not a label; so does an agent stage's config.
var freeKeys = map[string]bool{"context": true, "variables": true, "value": true, "body": true,
	"headers": true, "request": true, "outputs": true, "message": true}

// labelLengths reports every literal label name under n longer than MaxLabelName. A name
// holding a template is a custom gate's parameter, filled in and checked where the gate
// is used, or an error of its own (literalLabels).
func (l *loader) labelLengths(n *yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			l.labelLengths(c)
		}
	case yaml.MappingNode:
		isLabelAction, isAgent := false, false
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			isLabelAction = isLabelAction || (k.Value == "action" && v.Value == lang.ActionLabel)
			isAgent = isAgent || k.Value == "agent" || (k.Value == "type" && v.Value == string(lang.StageAgent))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch {
			case freeKeys[k.Value] || (k.Value == "config" && isAgent):
			case labelKeys[k.Value]:
				l.labelNames(v)
			case k.Value == "config" && isLabelAction && v.Kind == yaml.MappingNode:
				// {action: label, config: {add: [...], remove: [...]}}
				for j := 0; j+1 < len(v.Content); j += 2 {
					if ck := v.Content[j].Value; ck == "add" || ck == "remove" {
						l.labelNames(v.Content[j+1])
					}
				}
			default:
				l.labelLengths(v)
			}
		}
	}
}

// labelNames checks a label name or a list of them.
func (l *loader) labelNames(v *yaml.Node) {
	names := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		names = v.Content
	}
	for _, s := range names {
		if s.Kind != yaml.ScalarNode || strings.Contains(s.Value, "{{") {
			continue
		}
		if n := utf8.RuneCountInString(s.Value); n > MaxLabelName {
			l.errorf(s, kindValue, "label %q is %d characters long; GitHub refuses a label name over %d characters",
				s.Value, n, MaxLabelName)
		}
	}
}

// literalLabels reports each label name of e (a name or a list of them) that holds a
// template. A label is added or removed as written: it is never rendered, since what a
// run reads (a branch name, a title) is the pull request author's text, and a label it
// chose could be the very label a gate or a person waits for.
func (l *loader) literalLabels(e entry) {
	names := []*yaml.Node{e.val}
	if e.val.Kind == yaml.SequenceNode {
		names = e.val.Content
	}
	for _, s := range names {
		if s.Kind == yaml.ScalarNode && strings.Contains(s.Value, "{{") {
			l.errorf(s, kindValue, "label %q of %q holds a template; labels are not rendered: write the label itself", s.Value, e.key.Value)
		}
	}
}
