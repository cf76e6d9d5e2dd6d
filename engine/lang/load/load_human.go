package load

import (
	"fmt"
	"regexp"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

var waitFors = []string{lang.WaitApproval, lang.WaitComment, lang.WaitLabel, lang.WaitDismiss}

// human loads the keys of a human stage: what to wait for, from whom, how many, and
// the notifications around it.
func (sl *stageLoader) human(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	s.Count = 1
	if e, ok := f["wait_for"]; ok {
		s.WaitFor, _ = sl.enum(e, waitFors)
	} else {
		sl.errorf(n, kindKey, "missing required key %q in %s; expected one of %s", "wait_for", where, lang.QuoteList(waitFors))
	}
	if e, ok := f["from"]; ok {
		s.From, _ = sl.str(e)
	}
	if e, ok := f["count"]; ok {
		if c, ok := sl.integer(e, 1); ok {
			s.Count = c
		}
	}
	if e, ok := f["from"]; ok && s.From == lang.FromCodeOwners {
		switch _, counted := f["count"]; {
		case s.WaitFor != "" && s.WaitFor != lang.WaitApproval:
			sl.errorf(e.val, kindValue, "`from: %s` waits for approvals (\"wait_for: %s\"), not %q", lang.FromCodeOwners, lang.WaitApproval, s.WaitFor)
		case counted:
			sl.errorf(f["count"].key, kindKey, "%q does not apply with `from: %s`: it waits for an approval by a code owner of each owned file", "count", lang.FromCodeOwners)
		}
	}
	if e, ok := f["auto_assign"]; ok {
		s.AutoAssign, _ = sl.boolean(e)
	}
	if e, ok := f["dismiss_stale"]; ok {
		if dismiss, ok := sl.boolean(e); ok {
			s.KeepOnPush = !dismiss
		}
	}
	if e, ok := f["pattern"]; ok {
		if s.WaitFor != "" && s.WaitFor != lang.WaitComment {
			sl.errorf(e.key, kindKey, "%q applies only to \"wait_for: %s\", not %q", "pattern", lang.WaitComment, s.WaitFor)
		} else if p, ok := sl.str(e); ok {
			if _, err := regexp.Compile(p); err != nil {
				sl.errorf(e.val, kindValue, "%q must be a regular expression: %v", "pattern", err)
			}
			s.Pattern = p
		}
	}
	if e, ok := f["label"]; ok {
		if s.WaitFor != "" && s.WaitFor != lang.WaitLabel {
			sl.errorf(e.key, kindKey, "%q applies only to \"wait_for: %s\", not %q", "label", lang.WaitLabel, s.WaitFor)
		} else {
			if l, ok := sl.str(e); ok {
				sl.literalLabels(e)
				s.WaitLabel = l
			}
		}
	} else if s.WaitFor == lang.WaitLabel {
		sl.errorf(n, kindKey, "missing required key %q in %s; \"wait_for: %s\" needs it", "label", where, lang.WaitLabel)
	}
	if e, ok := f["notify"]; ok {
		sl.humanNotify(e, s, where)
	}
}

// humanNotify loads `notify:` of a human stage: {on_enter, reminder {interval, message, max_reminders}}.
func (sl *stageLoader) humanNotify(e entry, s *lang.Stage, where string) {
	where = fmt.Sprintf("%q of %s", "notify", where)
	f := sl.fields(e.val, "notify", section{where: where, known: []string{"on_enter", "reminder"}})
	if e.val.Kind == yaml.MappingNode && len(e.val.Content) == 0 {
		sl.errorf(e.val, kindValue, "%s must not be empty; it takes %q and %q", where, "on_enter", "reminder")
	}
	if x, ok := f["on_enter"]; ok {
		s.OnEnter = sl.template(x)
	}
	x, ok := f["reminder"]
	if !ok {
		return
	}
	r := &lang.Reminder{Pos: sl.pos(x.val)}
	where = fmt.Sprintf("%q of %s", "reminder", where)
	rf := sl.fields(x.val, "reminder", section{where: where, known: []string{"interval", "message", "max_reminders"}})
	if x.val.Kind != yaml.MappingNode {
		return
	}
	if v, ok := rf["interval"]; ok {
		r.Interval, _ = sl.duration(v)
	} else {
		sl.errorf(x.val, kindKey, "missing required key %q in %s", "interval", where)
	}
	if v, ok := rf["message"]; ok {
		r.Message = sl.template(v)
	}
	if v, ok := rf["max_reminders"]; ok {
		r.MaxReminders, _ = sl.integer(v, 1)
	}
	s.Reminder = r
}
