package load

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// Keys of the mapping form of each kind of Rule.
var (
	// on_followup, on_revise, on_reject, on_approve, on_failed, on_any_reject
	loopRuleKeys = []string{"goto", "max_iterations", "then", "context", "notify", "label"}
	// on_fail of a gate: a loop, or {when: {check_failed: X}, action: notify_and_wait, notify}
	onFailKeys = []string{"goto", "max_iterations", "then", "when", "action", "notify", "label"}
	// on_timeout: notify, label, then: <target> | extend (with extend: <duration>)
	onTimeoutKeys = []string{"notify", "label", "then", "extend", "max_extensions"}
	// on_conflict of merge_pr
	handlerKeys = []string{"notify", "label", "then"}
	// on_ci_failure of merge_pr
	ciFailureKeys = []string{"goto", "max_iterations", "then", "notify", "label"}
)

// A word a Rule may hold besides transition targets and ThenExtend.
const notifyAndWait = "notify_and_wait" // on_fail action: notify, keep waiting

// rule reads a transition in its rich form: a target written as a string (Goto), or a
// mapping of the given keys.
func (sl *stageLoader) rule(e entry, where string, keys []string) *lang.Rule {
	v := e.val
	r := &lang.Rule{Pos: sl.pos(v)}
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		sl.target(e, &r.Goto)
		return r
	}
	if v.Kind != yaml.MappingNode {
		sl.errorf(v, kindType, "%q must be a stage id, a terminal target or a mapping with %s, not %s",
			e.key.Value, lang.QuoteList(keys), describe(v))
		return nil
	}
	where = fmt.Sprintf("%q of %s", e.key.Value, where)
	f := sl.fields(v, e.key.Value, section{where: where, known: keys})
	if len(f) == 0 {
		if len(v.Content) == 0 {
			sl.errorf(v, kindValue, "%s must say where to go or what to do; it takes %s", where, lang.QuoteList(keys))
		}
		return nil
	}
	if x, ok := f["goto"]; ok {
		sl.target(x, &r.Goto)
	}
	if x, ok := f["max_iterations"]; ok {
		r.MaxIterations, _ = sl.integer(x, 1)
		if _, ok := f["goto"]; !ok {
			sl.errorf(x.key, kindKey, "%q in %s needs %q: where to loop back to", "max_iterations", where, "goto")
		}
	}
	if x, ok := f["then"]; ok {
		if slices.Contains(keys, "extend") {
			sl.target(x, &r.Then, lang.ThenExtend)
		} else {
			sl.target(x, &r.Then)
		}
	}
	if x, ok := f["context"]; ok {
		r.Context = sl.keyValues(x, where)
	}
	if x, ok := f["notify"]; ok {
		r.Notify = sl.notify(x, where)
	}
	if x, ok := f["label"]; ok {
		labels, ok := sl.strs(x)
		if ok {
			sl.literalLabels(x)
		}
		r.Labels = sl.nonEmpty(x, labels)
	}
	sl.ruleTimeout(f, r, where)
	sl.ruleWhen(v, f, r, where)
	return r
}

// ruleTimeout reads `extend` and `max_extensions` of on_timeout.
func (sl *stageLoader) ruleTimeout(f map[string]entry, r *lang.Rule, where string) {
	x, extend := f["extend"]
	if extend {
		r.Extend, _ = sl.duration(x)
		switch r.Then {
		case "":
			r.Then = lang.ThenExtend
		case lang.ThenExtend:
		default:
			sl.errorf(x.key, kindKey, "%q in %s applies only with \"then: extend\", not \"then: %s\"", "extend", where, r.Then)
		}
	} else if t, ok := f["then"]; ok && r.Then == lang.ThenExtend {
		sl.errorf(t.val, kindKey, "\"then: extend\" in %s needs %q: how long to extend by, such as \"24h\"", where, "extend")
	}
	if x, ok := f["max_extensions"]; ok {
		r.MaxExtensions, _ = sl.integer(x, 1)
		if !extend {
			sl.errorf(x.key, kindKey, "%q in %s needs %q", "max_extensions", where, "extend")
		}
	}
}

// ruleWhen reads the conditional form of on_fail: `when`, `action`.
func (sl *stageLoader) ruleWhen(v *yaml.Node, f map[string]entry, r *lang.Rule, where string) {
	if x, ok := f["when"]; ok {
		wf := sl.fields(x.val, "when", section{where: "\"when\" of " + where, known: []string{"check_failed"}})
		if c, ok := wf["check_failed"]; ok {
			r.WhenCheckFailed, _ = sl.str(c)
		} else if x.val.Kind == yaml.MappingNode {
			sl.errorf(x.val, kindKey, "missing required key %q in \"when\" of %s", "check_failed", where)
		}
	}
	if x, ok := f["action"]; ok {
		r.Action, _ = sl.enum(x, []string{notifyAndWait})
		if r.Action == notifyAndWait && r.Notify == nil {
			if _, ok := f["notify"]; !ok {
				sl.errorf(x.val, kindKey, "action %q in %s needs %q", notifyAndWait, where, "notify")
			}
		}
	}
	_, hasGoto := f["goto"]
	_, hasAction := f["action"]
	_, hasWhen := f["when"]
	if hasWhen && !hasGoto && !hasAction {
		sl.errorf(v, kindKey, "%s has %q but neither %q nor %q: what to do when it holds", where, "when", "action", "goto")
	}
}

// notify reads a notification: `{target, message}`, or a target alone.
func (sl *stageLoader) notify(e entry, where string) *lang.Notify {
	v := e.val
	out := &lang.Notify{Pos: sl.pos(v)}
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		out.Target = sl.templateNode(v, "target")
		return out
	}
	if v.Kind != yaml.MappingNode {
		sl.errorf(v, kindType, "%q must be a target (a group, a login or \"pr\") or a mapping with %q and %q, not %s",
			e.key.Value, "target", "message", describe(v))
		return nil
	}
	where = fmt.Sprintf("%q of %s", e.key.Value, where)
	f := sl.fields(v, e.key.Value, section{where: where, known: []string{"target", "message"}})
	if t, ok := f["target"]; ok {
		out.Target = sl.template(t)
	} else {
		sl.errorf(v, kindKey, "missing required key %q in %s", "target", where)
	}
	if m, ok := f["message"]; ok {
		out.Message = sl.template(m)
	}
	return out
}

// errorPolicy reads `on_error` of an agent or pipeline stage: `{retry, then}` or a target.
func (sl *stageLoader) errorPolicy(e entry, where string) *lang.ErrorPolicy {
	v := e.val
	out := &lang.ErrorPolicy{Pos: sl.pos(v), Then: lang.TargetFail}
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		sl.target(e, &out.Then)
		return out
	}
	if v.Kind != yaml.MappingNode {
		sl.errorf(v, kindType, "%q must be a stage id, a terminal target or a mapping with %q and %q, not %s",
			"on_error", "retry", "then", describe(v))
		return nil
	}
	where = fmt.Sprintf("%q of %s", "on_error", where)
	f := sl.fields(v, "on_error", section{where: where, known: []string{"retry", "then"}})
	if x, ok := f["retry"]; ok {
		out.Retry, _ = sl.integer(x, 0)
	}
	if x, ok := f["then"]; ok {
		sl.target(x, &out.Then)
	}
	if len(v.Content) == 0 {
		sl.errorf(v, kindValue, "%s must not be empty; it takes %q and %q", where, "retry", "then")
	}
	return out
}
