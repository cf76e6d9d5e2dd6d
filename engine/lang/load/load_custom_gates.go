package load

import (
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// A custom gate (`settings.custom_gates.<name>`) is a named check composed of built-in
// ones: a condition `check: <name>` with parameters stands for the gate's conditions,
// each scalar `{{ params.<p> }}` in them replaced by the condition's value of p (or
// p's default). The composition happens here, on the YAML, so that every built-in
// check compiles and evaluates as it does on its own.

// customGate is one entry of `settings.custom_gates`.
type customGate struct {
	name   string
	params map[string]*yaml.Node // a parameter's default value; nil: required
	order  []string              // the parameters in file order
	conds  []*yaml.Node          // the conditions, as written
}

// maxCustomConditions bounds the conditions all uses of custom gates stand for: a gate of
// many conditions used many times would otherwise cost the square of the file's size.
const maxCustomConditions = 10000

// paramRef matches a reference to a parameter inside a scalar.
var paramRef = regexp.MustCompile(`\{\{\s*params\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// seedCustomGates is the error for custom gates as Python classes.
const seedCustomGates = "custom gates cannot be Python classes (%q, %q): an Action runs no Python modules; " +
	"compose built-in checks under \"settings.custom_gates\" instead, e.g. " +
	"custom_gates: {deployment_ready: {params: {environment: {default: staging}}, " +
	"conditions: [{check: deployment, environment: \"{{ params.environment }}\", state: success}]}}"

// pipelineSettings refuses the top-level `pipeline_settings:` whose custom gates name
// Python classes, saying so; any other content is reported as an unknown key.
func (l *loader) pipelineSettings(root *yaml.Node) bool {
	e, ok := lookupKey(root, "pipeline_settings")
	if !ok {
		return false
	}
	if _, ok := lookupKey(e.val, "custom_gates"); ok {
		l.errorf(e.key, kindKey, seedCustomGates, "module", "class")
		return true
	}
	return false
}

// customGates loads `settings.custom_gates`.
func (l *loader) customGates(e entry) {
	if deref(e.val).Kind == yaml.SequenceNode {
		l.errorf(e.val, kindType, seedCustomGates, "module", "class")
		return
	}
	for _, g := range l.entries(e.val, "custom_gates", `"settings.custom_gates"`) {
		if cg := l.customGate(g); cg != nil {
			if l.custom == nil {
				l.custom = map[string]*customGate{}
			}
			l.custom[cg.name] = cg
		}
	}
}

// customGate loads one custom gate.
func (l *loader) customGate(g entry) *customGate {
	name := g.key.Value
	where := "custom gate " + quote(name)
	if _, ok := lookupKey(g.val, "module"); ok {
		l.errorf(g.key, kindKey, seedCustomGates, "module", "class")
		return nil
	}
	if _, ok := l.lookupGate(name); ok {
		l.errorf(g.key, kindGate, "custom gate %q has the name of a built-in check; choose another name", name)
		return nil
	}
	f := l.fields(g.val, "custom gate", section{where: where, known: []string{"description", "params", "conditions"}})
	cg := &customGate{name: name, params: map[string]*yaml.Node{}}
	if d, ok := f["description"]; ok {
		l.str(d)
	}
	if p, ok := f["params"]; ok {
		l.customParams(p, cg, where)
	}
	c, ok := f["conditions"]
	if !ok {
		l.errorf(g.val, kindKey, "missing required key %q in %s", "conditions", where)
		return nil
	}
	items, ok := l.items(c.val, "conditions")
	if !ok {
		return nil
	}
	if len(items) == 0 {
		l.errorf(c.val, kindValue, "%q of %s must list at least one check", "conditions", where)
		return nil
	}
	before := len(l.errs)
	for _, item := range items {
		l.customCondition(item, cg, where)
	}
	if len(l.errs) > before {
		return nil
	}
	cg.conds = items
	return cg
}

// customParams loads the `params:` of a custom gate: name → {default: value}.
func (l *loader) customParams(p entry, cg *customGate, where string) {
	for _, e := range l.entries(p.val, "params", "the params of "+where) {
		pf := l.fields(e.val, "param", section{where: "parameter " + quote(e.key.Value) + " of " + where, known: []string{"default", "description"}})
		if d, ok := pf["description"]; ok {
			l.str(d)
		}
		cg.order = append(cg.order, e.key.Value)
		cg.params[e.key.Value] = nil
		if d, ok := pf["default"]; ok {
			cg.params[e.key.Value] = d.val
		}
	}
}

// customCondition checks one condition of a custom gate's definition: a mapping whose
// check is built in, whose parameter references name declared parameters.
func (l *loader) customCondition(item *yaml.Node, cg *customGate, where string) {
	if item.Kind != yaml.MappingNode {
		l.errorf(item, kindType, "items of %q must be mappings with %q, not %s", "conditions", "check", describe(item))
		return
	}
	c, ok := lookupKey(item, "check")
	if !ok {
		l.errorf(item, kindKey, "missing required key %q in a condition of %s; %s", "check", where, l.knownChecks())
		return
	}
	if _, ok := l.lookupGate(c.val.Value); !ok {
		if _, custom := l.custom[c.val.Value]; custom || c.val.Value == cg.name {
			l.errorf(c.val, kindGate, "%s uses custom gate %q; custom gates are composed of built-in checks only", where, c.val.Value)
		} else {
			l.errorf(c.val, kindGate, "unknown check %q in %s; %s", c.val.Value, where, l.knownChecks())
		}
	}
	walkScalars(item, func(n *yaml.Node) {
		for _, m := range paramRef.FindAllStringSubmatch(n.Value, -1) {
			if _, ok := cg.params[m[1]]; !ok {
				l.errorf(n, kindRef, "%q names parameter %q, which %s does not declare under %q", m[0], m[1], where, "params")
			}
		}
	})
}

// walkScalars calls f on every scalar under n.
func walkScalars(n *yaml.Node, f func(*yaml.Node)) {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		f(n)
		return
	}
	for _, c := range n.Content {
		walkScalars(c, f)
	}
}

func quote(s string) string { return lang.QuoteList([]string{s}) }

// customArgs reads the parameters a condition gives custom gate cg: its keys but
// `check` and `optional`. It reports unknown and missing parameters.
func (sl gateLoader) customArgs(n *yaml.Node, cg *customGate) (map[string]*yaml.Node, bool) {
	args := map[string]*yaml.Node{}
	ok := true
	for _, e := range sl.entries(n, "condition", "a condition") {
		k := e.key.Value
		if k == "check" || k == "optional" {
			continue
		}
		if _, declared := cg.params[k]; !declared {
			ok = false
			if len(cg.order) == 0 {
				sl.errorf(e.key, kindKey, "unknown key %q for custom gate %q; it takes no parameters", k, cg.name)
			} else if s := lang.Suggest(k, cg.order); s != "" {
				sl.errorf(e.key, kindKey, "unknown key %q for custom gate %q; did you mean %q?", k, cg.name, s)
			} else {
				sl.errorf(e.key, kindKey, "unknown key %q for custom gate %q; it takes %s", k, cg.name, lang.QuoteList(cg.order))
			}
			continue
		}
		args[k] = e.val
	}
	for _, p := range cg.order {
		if _, given := args[p]; given {
			continue
		}
		if d := cg.params[p]; d != nil {
			args[p] = d
			continue
		}
		ok = false
		sl.errorf(n, kindKey, "missing required key %q for custom gate %q, whose parameter has no default", p, cg.name)
	}
	return args, ok
}

// customConditions expands a condition `check: <custom gate>` into the gate's
// conditions, each named after the custom gate.
func (sl gateLoader) customConditions(n *yaml.Node, cg *customGate, where string) ([]lang.Condition, bool) {
	args, ok := sl.customArgs(n, cg)
	if !ok {
		return nil, false
	}
	if sl.customExpanded += len(cg.conds); sl.customExpanded > maxCustomConditions {
		sl.errorf(n, kindGate, "the uses of custom gates stand for more than %d conditions; use fewer", maxCustomConditions)
		return nil, false
	}
	optional := false
	if o, ok := lookupKey(n, "optional"); ok {
		optional, _ = sl.boolean(o)
	}
	var out []lang.Condition
	for _, def := range cg.conds {
		c, ok := sl.condition(substitute(def, args), where)
		if !ok {
			return nil, false
		}
		c.Builtin, c.Check, c.Pos, c.Optional = c.Check, cg.name, sl.pos(n), c.Optional || optional
		out = append(out, c)
	}
	return out, true
}

// substitute copies n with its parameter references replaced: a scalar that is one
// reference becomes the argument's node (its position and type are the caller's); a
// reference inside a longer text is replaced by the argument's text.
func substitute(n *yaml.Node, args map[string]*yaml.Node) *yaml.Node {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		if m := paramRef.FindStringSubmatchIndex(n.Value); m != nil && m[0] == 0 && m[1] == len(n.Value) {
			return args[n.Value[m[2]:m[3]]]
		}
		if !paramRef.MatchString(n.Value) {
			return n
		}
		c := *n
		c.Value = paramRef.ReplaceAllStringFunc(n.Value, func(ref string) string {
			return strings.TrimSpace(args[paramRef.FindStringSubmatch(ref)[1]].Value)
		})
		return &c
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			c.Content[i] = x // keys stay
			continue
		}
		c.Content[i] = substitute(x, args)
	}
	return &c
}

// customNames returns the custom gates' names, sorted.
func (l *knownGates) customNames() []string {
	out := make([]string, 0, len(l.custom))
	for name := range l.custom {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// conditions loads one item of `conditions:`: a built-in check, or the conditions of
// the custom gate it names.
func (sl gateLoader) conditions(n *yaml.Node, where string) []lang.Condition {
	if c, ok := lookupKey(n, "check"); ok && c.val.Kind == yaml.ScalarNode {
		if cg, ok := sl.custom[c.val.Value]; ok {
			conds, _ := sl.customConditions(n, cg, where)
			return conds
		}
	}
	if cond, ok := sl.condition(n, where); ok {
		return []lang.Condition{cond}
	}
	return nil
}
