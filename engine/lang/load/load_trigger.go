package load

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// triggerEvents are the events a pipeline's trigger may name, as "<event>.<action>".
var triggerEvents = []string{
	"pull_request.opened", "pull_request.reopened", "pull_request.synchronize",
	"pull_request.labeled", "pull_request.unlabeled", "pull_request.edited",
	"pull_request.ready_for_review", "pull_request.converted_to_draft", "pull_request.closed",
	"pull_request_review.submitted", "pull_request_review.dismissed", "pull_request_review.edited",
	"issues.opened", "issues.labeled", "issues.unlabeled", "issues.assigned", "issues.closed",
	"issue_comment.created",
}

// reactionEvents are the events on_events may react to: the trigger events and those
// that only say something finished.
var reactionEvents = append(append([]string{}, triggerEvents...),
	"workflow_run.completed", "check_suite.completed", "check_run.completed", "status")

// TriggerEvents returns the events a trigger may name.
func TriggerEvents() []string { return append([]string{}, triggerEvents...) }

// ReactionEvents returns the events on_events may name.
func ReactionEvents() []string { return append([]string{}, reactionEvents...) }

// trigger loads `trigger:` of pipeline name.
func (l *loader) trigger(e entry, name string) lang.Trigger {
	t := lang.Trigger{Pos: l.pos(e.val)}
	f := l.fields(e.val, "trigger", section{
		where: fmt.Sprintf("trigger of pipeline %q", name),
		known: []string{"event", "conditions", "if"},
	})
	if e.val.Kind != yaml.MappingNode {
		return t
	}
	if ev, ok := f["event"]; ok {
		if s, ok := l.str(ev); ok && l.event(ev.val, s, triggerEvents) {
			t.Event = s
		}
	} else {
		l.errorf(e.val, kindKey, "missing required key %q in trigger of pipeline %q", "event", name)
	}
	if x, ok := f["if"]; ok {
		t.If = l.expr(x)
		if t.If != nil {
			for _, r := range t.If.Roots() {
				if r != "trigger" && r != "github" {
					// No run exists yet: its context, stages and variables are empty.
					l.errorf(x.val, lang.KindExpr, "a trigger's %q reads only %q and %q (no run exists yet), not %q", "if", "trigger", "github", r)
					t.If = nil
					break
				}
			}
		}
	}
	c, ok := f["conditions"]
	if !ok {
		return t
	}
	f = l.fields(c.val, "conditions", section{
		where: fmt.Sprintf("trigger conditions of pipeline %q", name),
		known: []string{"base_branch", "labels", "label", "draft", "author"},
	})
	if v, ok := f["base_branch"]; ok {
		t.BaseBranch, _ = l.str(v)
	}
	for _, k := range []string{"label", "labels"} {
		if v, ok := f[k]; ok {
			labels, _ := l.strs(v)
			t.Labels = append(t.Labels, labels...)
		}
	}
	if v, ok := f["draft"]; ok {
		if b, ok := l.boolean(v); ok {
			t.Draft = &b
		}
	}
	if v, ok := f["author"]; ok {
		t.Author, _ = l.str(v)
	}
	return t
}

// event checks that the event named at n is one of known.
func (l *loader) event(n *yaml.Node, ev string, known []string) bool {
	if slices.Contains(known, ev) {
		return true
	}
	if s := lang.Suggest(ev, known); s != "" {
		l.errorf(n, kindValue, "unknown event %q; did you mean %q?", ev, s)
	} else {
		l.errorf(n, kindValue, "unknown event %q; expected one of %s", ev, lang.QuoteList(known))
	}
	return false
}
