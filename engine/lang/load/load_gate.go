package load

import (
	"fmt"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// gateLoader loads the keys of gate stages: their conditions, each a registered check
// or a custom gate expanded in place.
type gateLoader struct{ *stageLoader }

// gate loads the keys of a gate stage: its conditions and transitions. Conditions
// all hold; an item `{any_of: [conditions]}` of conditions, or the stage's own
// `any_of:` list, is a group of which one must hold.
func (sl gateLoader) gate(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	if e, ok := f["on_pass"]; ok {
		sl.target(e, &s.OnPass)
	}
	c, hasConds := f["conditions"]
	a, hasAnyOf := f["any_of"]
	if !hasConds && !hasAnyOf {
		sl.errorf(n, kindKey, "missing required key %q in %s", "conditions", where)
	}
	if hasConds {
		if items, ok := sl.items(c.val, "conditions"); ok {
			if len(items) == 0 {
				sl.errorf(c.val, kindValue, "%q of %s must list at least one check", "conditions", where)
			}
			for _, item := range items {
				if g, ok := lookupKey(item, "any_of"); ok {
					sl.anyOf(item, g, s, where)
					continue
				}
				s.Conditions = append(s.Conditions, sl.conditions(item, where)...)
			}
		}
	}
	if hasAnyOf {
		if group := sl.conditionGroup(a, where); group != nil {
			s.AnyOf = append(s.AnyOf, group)
		}
	}
	if e, ok := f["on_fail"]; ok {
		if e.val.Kind == yaml.MappingNode {
			s.OnFailRule = sl.rule(e, where, onFailKeys)
			if r := s.OnFailRule; r != nil && r.WhenCheckFailed != "" {
				sl.checkFailed(e, r.WhenCheckFailed, s)
			}
		} else {
			sl.target(e, &s.OnFail)
		}
	}
}

// anyOf loads an item `{any_of: [...]}` of conditions into a group of s.AnyOf.
func (sl gateLoader) anyOf(item *yaml.Node, g entry, s *lang.Stage, where string) {
	sl.fields(item, "condition", section{where: "an \"any_of\" condition of " + where, known: []string{"any_of"}})
	if group := sl.conditionGroup(g, where); group != nil {
		s.AnyOf = append(s.AnyOf, group)
	}
}

// conditionGroup loads the conditions of an `any_of:` list.
func (sl gateLoader) conditionGroup(g entry, where string) []lang.Condition {
	items, ok := sl.items(g.val, "any_of")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		sl.errorf(g.val, kindValue, "%q of %s must list at least one check", "any_of", where)
		return nil
	}
	var group []lang.Condition
	for _, item := range items {
		conds := sl.conditions(item, where)
		if len(conds) > 1 {
			sl.errorf(item, kindGate, "custom gate %q has %d conditions, which all must hold; an item of %q is one check", conds[0].Check, len(conds), "any_of")
			continue
		}
		group = append(group, conds...)
	}
	return group
}

// checkFailed checks that `when: {check_failed: X}` of on_fail names a check of the gate.
func (sl gateLoader) checkFailed(e entry, name string, s *lang.Stage) {
	var checks []string
	for _, c := range s.Conditions {
		checks = append(checks, c.Check)
	}
	for _, g := range s.AnyOf {
		for _, c := range g {
			checks = append(checks, c.Check)
		}
	}
	if slices.Contains(checks, name) {
		return
	}
	at := e.val
	if w, ok := lookupKey(e.val, "when"); ok {
		if c, ok := lookupKey(w.val, "check_failed"); ok {
			at = c.val
		}
	}
	if sug := lang.Suggest(name, checks); sug != "" {
		sl.errorf(at, kindRef, "%q names check %q, which stage %q does not have; did you mean %q?", "check_failed", name, s.ID, sug)
	} else {
		sl.errorf(at, kindRef, "%q names check %q, which stage %q does not have; its checks are %s", "check_failed", name, s.ID, lang.QuoteList(checks))
	}
}

// condition loads one item of `conditions:` and compiles it with its gate.
func (sl gateLoader) condition(n *yaml.Node, where string) (lang.Condition, bool) {
	c := lang.Condition{Pos: sl.pos(n)}
	if n.Kind != yaml.MappingNode {
		sl.errorf(n, kindType, "items of %q must be mappings with %q, not %s", "conditions", "check", describe(n))
		return c, false
	}
	keys := map[string]*yaml.Node{}
	kpos := map[string]lang.Pos{}
	var check *entry
	for _, e := range sl.entries(n, "condition", "a condition of "+where) {
		switch e.key.Value {
		case "check":
			check = &entry{key: e.key, val: e.val}
		case "optional":
			c.Optional, _ = sl.boolean(e)
		default:
			keys[e.key.Value] = e.val
			kpos[e.key.Value] = sl.pos(e.key)
		}
	}
	if check == nil {
		sl.errorf(n, kindKey, "missing required key %q in a condition of %s; %s", "check", where, sl.knownChecks())
		return c, false
	}
	name, ok := sl.str(*check)
	if !ok {
		return c, false
	}
	c.Check = name
	gate, ok := sl.lookupGate(name)
	if !ok {
		if s := lang.Suggest(name, sl.checkNames()); s != "" {
			sl.errorf(check.val, kindGate, "unknown check %q; did you mean %q? %s", name, s, sl.knownChecks())
		} else {
			sl.errorf(check.val, kindGate, "unknown check %q; %s", name, sl.knownChecks())
		}
		return c, false
	}
	if name == "command" && !sl.cfg.Settings.AllowCommand {
		sl.errorf(check.val, kindGate, "check %q runs a command on the runner; allow it with \"settings: {allow_commands: true}\"", name)
	}
	p := lang.NewParams(sl.file, name, c.Pos, keys, kpos).CompileWith(sl.exprs)
	eval, err := compileGate(gate, p)
	before := len(sl.errs)
	sl.errs = append(sl.errs, p.Errors()...)
	sl.gateError(err, p, c.Pos)
	for _, k := range p.Unused() {
		msg := fmt.Sprintf("unknown key %q for check %q", k, name)
		if known := p.Known(); len(known) > 0 {
			if s := lang.Suggest(k, known); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; it takes " + lang.QuoteList(known)
			}
		} else {
			msg += "; it takes no parameters"
		}
		sl.errs = append(sl.errs, &lang.Error{Pos: p.KeyPos(k), Message: msg, Kind: kindKey})
	}
	if len(sl.errs) > before {
		return c, false
	}
	if eval == nil {
		sl.errorf(n, kindGate, "check %q compiled to nothing", name)
		return c, false
	}
	c.Eval = eval
	return c, true
}

// compileGate runs a gate's Compile, turning a panic into an error so that a faulty
// gate cannot crash a load.
func compileGate(g lang.Gate, p *lang.Params) (c lang.Check, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("check %q failed to compile: %v", p.Check, r)
		}
	}()
	return g.Compile(p)
}

// gateError adds what Compile returned, unless Params already recorded it.
func (sl gateLoader) gateError(err error, p *lang.Params, pos lang.Pos) {
	if err == nil {
		return
	}
	recorded := func(e *lang.Error) bool {
		for _, r := range p.Errors() {
			if r == e {
				return true
			}
		}
		return false
	}
	switch e := err.(type) {
	case *lang.Error:
		if e != nil && !recorded(e) {
			sl.errs = append(sl.errs, e)
		}
	case lang.ErrorList:
		for _, x := range e {
			if x != nil && !recorded(x) {
				sl.errs = append(sl.errs, x)
			}
		}
	default:
		sl.errs = append(sl.errs, &lang.Error{Pos: pos, Message: err.Error(), Kind: kindGate})
	}
}

// knownGates are the checks a gate condition may name: the registered gates and the
// config's custom gates.
type knownGates struct {
	gates  lang.GateRegistry
	custom map[string]*customGate // settings.custom_gates, by name
}

func (l *knownGates) lookupGate(name string) (lang.Gate, bool) {
	if l.gates == nil {
		return nil, false
	}
	g, ok := l.gates.Lookup(name)
	return g, ok && g != nil
}

func (l *knownGates) checkNames() []string {
	if l.gates == nil {
		return l.customNames()
	}
	if len(l.custom) == 0 {
		return l.gates.Names()
	}
	return slices.Sorted(slices.Values(append(l.gates.Names(), l.customNames()...)))
}

// knownChecks lists the registered check names for an error message.
func (l *knownGates) knownChecks() string {
	names := l.checkNames()
	if len(names) == 0 {
		return "no checks are registered"
	}
	return "known checks: " + lang.QuoteList(names)
}
