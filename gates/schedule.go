package gates

import (
	"fmt"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // a timezone resolves alike on every machine, the action's image included

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// Schedule is the `schedule` check: merge windows and freezes. It holds while the time of the
// event being evaluated (never the machine's clock) lies inside `window` — `days` (`mon`…`sun`,
// ranges such as `mon-thu`), `hours` ("09:00-17:00", the end excluded) in `timezone` (IANA,
// default UTC) — and outside every `freeze` (dates, or ranges "2026-12-20/2027-01-04", whole
// days in the window's timezone). It says when it changes next (model.Clocked), so the sweep
// looks again at the window's edge without waiting for an event.
type Schedule struct{}

var _ engine.Gate = Schedule{}

// ScheduleName is the check's name in a config.
const ScheduleName = "schedule"

var dayNames = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

type schedule struct {
	days     [7]bool
	from, to time.Duration // since midnight; to excluded
	loc      *time.Location
	freezes  []freeze
	text     string // the window as written, for messages
}

type freeze struct {
	from, to string // dates, YYYY-MM-DD, both included
}

var (
	_ engine.Check  = schedule{}
	_ model.Clocked = schedule{}
)

// Compile reads `window` (`days`, `hours`, `timezone`) and `freeze`; one of them at least.
func (Schedule) Compile(p *lang.Params) (engine.Check, error) {
	s := schedule{from: 0, to: 24 * time.Hour, loc: time.UTC}
	for i := range s.days {
		s.days[i] = true
	}
	w := p.Sub("window")
	if w != nil {
		s.readWindow(w)
	}
	for _, f := range p.Strings("freeze") {
		from, to, _ := strings.Cut(f, "/")
		if to == "" {
			to = from
		}
		_, e1 := time.Parse(time.DateOnly, from)
		_, e2 := time.Parse(time.DateOnly, to)
		if e1 != nil || e2 != nil || to < from {
			p.Errorf("freeze", "%q of check %q: %q is not a date (2026-12-24) nor a range of dates (2026-12-20/2027-01-04)", "freeze", ScheduleName, f)
			continue
		}
		s.freezes = append(s.freezes, freeze{from, to})
	}
	if w == nil && !p.Has("freeze") {
		p.Errorf("window", "check %q needs %q, %q or both", ScheduleName, "window", "freeze")
	}
	return s, nil
}

func (s *schedule) readWindow(w *lang.Params) {
	if tz := w.String("timezone", ""); tz != "" {
		loc, err := time.LoadLocation(tz)
		if err != nil {
			w.Errorf("timezone", "%q of check %q: %q is not a timezone (an IANA name such as Europe/Berlin)", "timezone", ScheduleName, tz)
		} else {
			s.loc = loc
		}
	}
	if days := w.Strings("days"); days != nil {
		s.days = [7]bool{}
		for _, d := range days {
			if !s.addDays(d) {
				w.Errorf("days", "%q of check %q: %q is not a day (mon … sun) nor a range of days (mon-thu)", "days", ScheduleName, d)
			}
		}
	}
	if h := w.String("hours", ""); h != "" {
		from, to, ok := hoursOf(h)
		if !ok {
			w.Errorf("hours", "%q of check %q: %q is not a range of hours (09:00-17:00, the end after the start)", "hours", ScheduleName, h)
		} else {
			s.from, s.to = from, to
		}
	}
	s.text = window(w)
}

// window is the window as its keys say it, for messages.
func window(w *lang.Params) string {
	var parts []string
	if d := w.Strings("days"); d != nil {
		parts = append(parts, strings.Join(d, ", "))
	}
	parts = append(parts, w.String("hours", "00:00-24:00"), w.String("timezone", "UTC"))
	return strings.Join(parts, " ")
}

// addDays adds a day or a range of days (wrapping past sunday: fri-mon).
func (s *schedule) addDays(d string) bool {
	a, b, isRange := strings.Cut(strings.ToLower(strings.TrimSpace(d)), "-")
	i, j := slices.Index(dayNames, a), slices.Index(dayNames, a)
	if isRange {
		j = slices.Index(dayNames, b)
	}
	if i < 0 || j < 0 {
		return false
	}
	for k := i; ; k = (k + 1) % 7 {
		s.days[k] = true
		if k == j {
			return true
		}
	}
}

// hoursOf reads "HH:MM-HH:MM" as times since midnight; 24:00 ends a day.
func hoursOf(h string) (from, to time.Duration, ok bool) {
	a, b, found := strings.Cut(h, "-")
	from, ok1 := clock(strings.TrimSpace(a))
	to, ok2 := clock(strings.TrimSpace(b))
	return from, to, found && ok1 && ok2 && to > from
}

func clock(s string) (time.Duration, bool) {
	var hh, mm int
	if n, err := fmt.Sscanf(s, "%d:%d", &hh, &mm); n != 2 || err != nil || len(s) != 5 || hh < 0 || mm < 0 || mm > 59 || hh*60+mm > 24*60 {
		return 0, false
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, true
}

// Evaluate holds inside the window and outside every freeze, at the event's time.
func (s schedule) Evaluate(f *model.Facts) model.GateResult {
	res := model.GateResult{Check: ScheduleName}
	if f == nil || f.Now.IsZero() {
		res.Status, res.Message = model.GateError, "the time of the event is not known"
		return res
	}
	now := f.Now.In(s.loc)
	next := s.NextChange(f.Now)
	switch fr, frozen := s.frozen(now); {
	case frozen:
		res.Status = model.GatePending
		res.Message = fmt.Sprintf("frozen from %s to %s", fr.from, fr.to) + until(next, s.loc)
	case !s.open(now):
		res.Status = model.GatePending
		res.Message = "outside the window (" + s.text + ")" + until(next, s.loc)
	default:
		res.Status, res.Message = model.GatePass, "inside the window"
		if s.text != "" {
			res.Message += " (" + s.text + ")"
		}
		return res
	}
	res.Who = "time"
	return res
}

func until(next time.Time, loc *time.Location) string {
	if next.IsZero() {
		return ""
	}
	return "; looks again at " + next.In(loc).Format("2006-01-02 15:04 MST")
}

func (s schedule) open(t time.Time) bool {
	since := time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second
	return s.days[t.Weekday()] && since >= s.from && since < s.to
}

func (s schedule) frozen(t time.Time) (freeze, bool) {
	d := t.Format(time.DateOnly)
	for _, f := range s.freezes {
		if d >= f.from && d <= f.to {
			return f, true
		}
	}
	return freeze{}, false
}

func (s schedule) holds(t time.Time) bool {
	_, frozen := s.frozen(t.In(s.loc))
	return !frozen && s.open(t.In(s.loc))
}

// NextChange is the first edge after now where the check's result changes — a window's
// start or end, a freeze's first day or the day after its last —, looked for up to a year
// ahead; zero when none comes.
func (s schedule) NextChange(now time.Time) time.Time {
	was := s.holds(now)
	local := now.In(s.loc)
	for d := 0; d <= 366; d++ {
		at := func(since time.Duration) time.Time { // local time, across a change of clocks too
			return time.Date(local.Year(), local.Month(), local.Day()+d, 0, int(since/time.Minute), 0, 0, s.loc)
		}
		for _, edge := range []time.Time{at(0), at(s.from), at(s.to)} {
			if edge.After(now) && s.holds(edge) != was {
				return edge
			}
		}
	}
	return time.Time{}
}
