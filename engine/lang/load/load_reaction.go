package load

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// reactionActions are the actions of on_events, and the keys each takes besides `action`:
//
//	pull_request.synchronize: {action: invalidate_and_restart, invalidate: [review], restart_from: review}
//	pull_request.closed:      {action: cancel}
//	check_suite.completed:    {action: reevaluate_gates}
//	pull_request.labeled:     {action: notify, notify: {target: maintainers, message: "…"}}
//	                          # or {action: notify, target: maintainers, message: "…"}
//	issue_comment.created:    {action: wake_agent, agent: feat-dev, message: "…"}
//
// restart_from defaults to "current", the stage the run is at; wake_agent's agent to
// the current stage's.
var (
	reactionActions = []string{lang.ReactReevaluate, lang.ReactCancel, lang.ReactInvalidateAndRestart, lang.ReactNotify, lang.ReactWakeAgent}
	reactionKeys    = map[string][]string{
		lang.ReactInvalidateAndRestart: {"invalidate", "restart_from"},
		lang.ReactNotify:               {"notify", "target", "message"},
		lang.ReactWakeAgent:            {"agent", "message"},
	}
)

// reactions loads `on_events:` of the pipeline.
func (sl *stageLoader) reactions(e entry) []lang.EventReaction {
	var out []lang.EventReaction
	known := []string{"action"}
	for _, a := range reactionActions {
		known = append(known, reactionKeys[a]...)
	}
	for _, re := range sl.entries(e.val, "on_events", fmt.Sprintf("on_events of pipeline %q", sl.pipeline)) {
		ev := re.key.Value
		ok := sl.event(re.key, ev, reactionEvents)
		where := fmt.Sprintf("on_events %q of pipeline %q", ev, sl.pipeline)
		v := re.val
		if v.Kind != yaml.MappingNode {
			sl.errorf(v, kindType, "%q must be a mapping with %q, not %s", ev, "action", describe(v))
			continue
		}
		f := sl.fields(v, "on_events", section{where: where, known: known})
		r := lang.EventReaction{Event: ev, Pos: sl.pos(re.key), ValuePos: sl.valuePositions(f)}
		if sl.reaction(v, f, &r, where) && ok {
			out = append(out, r)
		}
	}
	return out
}

// reaction fills r from the keys of one on_events entry.
func (sl *stageLoader) reaction(v *yaml.Node, f map[string]entry, r *lang.EventReaction, where string) bool {
	e, ok := f["action"]
	if !ok {
		sl.errorf(v, kindKey, "missing required key %q in %s", "action", where)
		return false
	}
	a, ok := sl.str(e)
	if !ok {
		return false
	}
	if !slices.Contains(reactionActions, a) {
		if s := lang.Suggest(a, reactionActions); s != "" {
			sl.errorf(e.val, kindValue, "unknown on_events action %q; did you mean %q?", a, s)
		} else {
			sl.errorf(e.val, kindValue, "unknown on_events action %q; expected one of %s", a, lang.QuoteList(reactionActions))
		}
		return false
	}
	r.Action = a
	before := len(sl.errs)
	own := reactionKeys[a]
	for k, x := range f {
		if k != "action" && !slices.Contains(own, k) {
			if len(own) == 0 {
				sl.errorf(x.key, kindKey, "key %q does not apply to on_events action %q, which takes no other keys", k, a)
			} else {
				sl.errorf(x.key, kindKey, "key %q does not apply to on_events action %q; it takes %s", k, a, lang.QuoteList(own))
			}
		}
	}
	switch a {
	case lang.ReactInvalidateAndRestart:
		if x, ok := f["invalidate"]; ok {
			r.Invalidate, _ = sl.strs(x)
		}
		r.RestartFrom = "current" // the stage the run is at
		if x, ok := f["restart_from"]; ok {
			r.RestartFrom, _ = sl.str(x)
		}
	case lang.ReactNotify:
		r.Notify = sl.reactionNotify(v, f, where)
	case lang.ReactWakeAgent:
		if x, ok := f["agent"]; ok {
			r.Agent, _ = sl.str(x)
		}
		if x, ok := f["message"]; ok {
			r.Message = sl.template(x)
		}
	}
	return len(sl.errs) == before
}

// reactionNotify reads the notification of a notify reaction: `notify: {target,
// message}` (or `notify: target`), or `target` and `message` beside `action`.
func (sl *stageLoader) reactionNotify(v *yaml.Node, f map[string]entry, where string) *lang.Notify {
	n, nested := f["notify"]
	_, target := f["target"]
	_, message := f["message"]
	switch {
	case nested && (target || message):
		sl.errorf(n.key, kindKey, "use either %q or %q and %q in %s, not both", "notify", "target", "message", where)
		return nil
	case nested:
		return sl.notify(n, where)
	case !target:
		sl.errorf(v, kindKey, "missing required key %q in %s; on_events action %q needs %q or %q",
			"notify", where, lang.ReactNotify, "notify", "target")
		return nil
	}
	out := &lang.Notify{Pos: sl.pos(v), Target: sl.template(f["target"])}
	if message {
		out.Message = sl.template(f["message"])
	}
	return out
}
