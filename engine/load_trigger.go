package engine

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
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
func (l *loader) trigger(e entry, name string) Trigger {
	t := Trigger{Pos: l.pos(e.val)}
	f := l.fields(e.val, "trigger", section{
		where:       fmt.Sprintf("trigger of pipeline %q", name),
		known:       []string{"event", "conditions"},
		unsupported: []string{"if"},
	})
	if e.val.Kind != yaml.MappingNode {
		return t
	}
	if ev, ok := f["event"]; ok {
		if s, ok := l.str(ev); ok && l.event(ev.val, s, triggerEvents) {
			t.Event = s
			if strings.HasPrefix(s, "issues.") {
				// The engine evaluates pull requests only; an issue trigger would never start.
				l.errorf(ev.val, kindUnsupported, "not supported yet: trigger event %q (issue-scoped pipelines)", s)
			}
		}
	} else {
		l.errorf(e.val, kindKey, "missing required key %q in trigger of pipeline %q", "event", name)
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
	if loadContains(known, ev) {
		return true
	}
	if s := suggest(ev, known); s != "" {
		l.errorf(n, kindValue, "unknown event %q; did you mean %q?", ev, s)
	} else {
		l.errorf(n, kindValue, "unknown event %q; expected one of %s", ev, quoteList(known))
	}
	return false
}

// reactions loads `on_events:` of pipeline name.
func (l *loader) reactions(e entry, name string) []EventReaction {
	var out []EventReaction
	for _, re := range l.entries(e.val, "on_events", fmt.Sprintf("on_events of pipeline %q", name)) {
		ev := re.key.Value
		known := l.event(re.key, ev, reactionEvents)
		where := fmt.Sprintf("on_events %q of pipeline %q", ev, name)
		v := re.val
		if v.Kind != yaml.MappingNode {
			l.errorf(v, kindType, "%q must be a mapping with %q, not %s", ev, "action", describe(v))
			continue
		}
		if a := l.reactionAction(v, where); a != "" && known {
			out = append(out, EventReaction{Event: ev, Action: a, Pos: l.pos(re.key)})
		}
	}
	return out
}

// reactionAction returns the action of an on_events entry, or "" when it is missing,
// wrong or not supported yet (then the entry's other keys, which belong to that action,
// are not checked).
func (l *loader) reactionAction(v *yaml.Node, where string) string {
	if a, ok := lookupKey(v, "action"); ok && a.val.Kind == yaml.ScalarNode {
		switch a.val.Value {
		case "invalidate_and_restart", "notify", "wake_agent":
			l.errorf(a.val, kindUnsupported, "not supported yet: on_events action %q", a.val.Value)
			return ""
		}
	}
	f := l.fields(v, "on_events", section{where: where, known: []string{"action"}})
	e, ok := f["action"]
	if !ok {
		l.errorf(v, kindKey, "missing required key %q in %s", "action", where)
		return ""
	}
	a, ok := l.str(e)
	if !ok {
		return ""
	}
	allowed := []string{ReactReevaluate, ReactCancel}
	if loadContains(allowed, a) {
		return a
	}
	if s := suggest(a, allowed); s != "" {
		l.errorf(e.val, kindValue, "unknown on_events action %q; did you mean %q?", a, s)
	} else {
		l.errorf(e.val, kindValue, "unknown on_events action %q; expected one of %s", a, quoteList(allowed))
	}
	return ""
}
