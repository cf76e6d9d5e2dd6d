package load

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// delay loads the keys of a delay stage: how long, and an optional poll that may end
// it early.
func (sl *stageLoader) delay(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	if e, ok := f["duration"]; ok {
		s.Duration, _ = sl.duration(e)
	} else {
		sl.errorf(n, kindKey, "missing required key %q in %s", "duration", where)
	}
	e, ok := f["poll"]
	if !ok {
		return
	}
	where = fmt.Sprintf("%q of %s", "poll", where)
	pf := sl.fields(e.val, "poll", section{where: where, known: []string{"interval", "condition", "on_ready"}})
	if e.val.Kind != yaml.MappingNode {
		return
	}
	p := &lang.Poll{Pos: sl.pos(e.val), OnReady: lang.PollSkipRemaining}
	if x, ok := pf["interval"]; ok {
		if d, ok := sl.duration(x); ok {
			p.Interval = d
			if s.Duration > 0 && d > s.Duration {
				sl.errorf(x.val, kindValue, "%q (%s) must not be longer than the delay's %q (%s)", "interval", x.val.Value, "duration", f["duration"].val.Value)
			}
		}
	} else {
		sl.errorf(e.val, kindKey, "missing required key %q in %s", "interval", where)
	}
	if x, ok := pf["condition"]; ok {
		p.Condition = sl.expr(x)
	} else {
		sl.errorf(e.val, kindKey, "missing required key %q in %s", "condition", where)
	}
	if x, ok := pf["on_ready"]; ok {
		sl.target(x, &p.OnReady, lang.PollSkipRemaining)
	}
	s.Poll = p
}
