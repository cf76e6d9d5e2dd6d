package engine

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// gate loads the keys of a gate stage: its conditions and transitions.
func (sl *stageLoader) gate(n *yaml.Node, f map[string]entry, s *Stage, where string) {
	if e, ok := f["on_pass"]; ok {
		sl.target(e, &s.OnPass)
	}
	if e, ok := f["on_fail"]; ok {
		if e.val.Kind == yaml.MappingNode {
			sl.errorf(e.val, kindUnsupported, "not supported yet: %q as a mapping", "on_fail")
		} else {
			sl.target(e, &s.OnFail)
		}
	}
	e, ok := f["conditions"]
	if !ok {
		sl.errorf(n, kindKey, "missing required key %q in %s", "conditions", where)
		return
	}
	items, ok := sl.items(e.val, "conditions")
	if !ok {
		return
	}
	if len(items) == 0 {
		sl.errorf(e.val, kindValue, "%q of %s must list at least one check", "conditions", where)
		return
	}
	for _, c := range items {
		if cond, ok := sl.condition(c, where); ok {
			s.Conditions = append(s.Conditions, cond)
		}
	}
}

// condition loads one item of `conditions:` and compiles it with its gate.
func (sl *stageLoader) condition(n *yaml.Node, where string) (Condition, bool) {
	c := Condition{Pos: sl.pos(n)}
	if n.Kind != yaml.MappingNode {
		sl.errorf(n, kindType, "items of %q must be mappings with %q, not %s", "conditions", "check", describe(n))
		return c, false
	}
	if e, ok := lookupKey(n, "any_of"); ok {
		sl.errorf(e.key, kindUnsupported, "not supported yet: %q", "any_of")
		return c, false
	}
	keys := map[string]*yaml.Node{}
	kpos := map[string]Pos{}
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
		if s := suggest(name, sl.checkNames()); s != "" {
			sl.errorf(check.val, kindGate, "unknown check %q; did you mean %q? %s", name, s, sl.knownChecks())
		} else {
			sl.errorf(check.val, kindGate, "unknown check %q; %s", name, sl.knownChecks())
		}
		return c, false
	}
	p := NewParams(sl.file, name, c.Pos, keys, kpos)
	eval, err := compileGate(gate, p)
	before := len(sl.errs)
	sl.errs = append(sl.errs, p.Errors()...)
	sl.gateError(err, p, c.Pos)
	for _, k := range p.Unused() {
		sl.errs = append(sl.errs, &Error{Pos: p.KeyPos(k), Message: fmt.Sprintf("unknown key %q for check %q", k, name), Kind: kindKey})
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
func compileGate(g Gate, p *Params) (c Check, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("check %q failed to compile: %v", p.Check, r)
		}
	}()
	return g.Compile(p)
}

// gateError adds what Compile returned, unless Params already recorded it.
func (sl *stageLoader) gateError(err error, p *Params, pos Pos) {
	if err == nil {
		return
	}
	recorded := func(e *Error) bool {
		for _, r := range p.Errors() {
			if r == e {
				return true
			}
		}
		return false
	}
	switch e := err.(type) {
	case *Error:
		if e != nil && !recorded(e) {
			sl.errs = append(sl.errs, e)
		}
	case ErrorList:
		for _, x := range e {
			if x != nil && !recorded(x) {
				sl.errs = append(sl.errs, x)
			}
		}
	default:
		sl.errs = append(sl.errs, &Error{Pos: pos, Message: err.Error(), Kind: kindGate})
	}
}

func (l *loader) lookupGate(name string) (Gate, bool) {
	if l.gates == nil {
		return nil, false
	}
	g, ok := l.gates.Lookup(name)
	return g, ok && g != nil
}

func (l *loader) checkNames() []string {
	if l.gates == nil {
		return nil
	}
	return l.gates.Names()
}

// knownChecks lists the registered check names for an error message.
func (l *loader) knownChecks() string {
	names := l.checkNames()
	if len(names) == 0 {
		return "no checks are registered"
	}
	return "known checks: " + quoteList(names)
}
