package load

import (
	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// The config of set_variable and set_shared, as an action stage's `config: {name, value}`
// and as an item of a pipeline's on_complete / on_error list (`- set_shared: {name, value}`).
// The name is a literal (no template): what `variables.<name>` or `shared.<name>` reads.

// variableConfig fills out from the config of a set_variable or set_shared stage.
func (sl actionLoader) variableConfig(c entry, f map[string]entry, out *lang.ActionConfig, where string) {
	if e, ok := f["name"]; ok {
		if name, ok := sl.str(e); ok {
			if !lang.VariableName().MatchString(name) {
				sl.errorf(e.val, kindValue, "%q is not a variable name; use letters, digits and %q, starting with a letter or %q", name, "_", "_")
			}
			out.Name = name
		}
	}
	out.Pipeline = sl.enableTarget(f)
	e, ok := f["value"]
	if !ok {
		sl.errorf(c.val, kindKey, "missing required key %q in %s", "value", where)
		return
	}
	out.Value = sl.value(e.val, "value", where)
}

// variableItem checks the mapping of a set_variable or set_shared list item.
func (l *loader) variableItem(v *yaml.Node, f map[string]entry, a, where string) bool {
	before := len(l.errs)
	if e, ok := f["name"]; ok {
		if name, ok := l.str(e); ok && !lang.VariableName().MatchString(name) {
			l.errorf(e.val, kindValue, "%q is not a variable name; use letters, digits and %q, starting with a letter or %q", name, "_", "_")
		}
	}
	l.enableTarget(f)
	if _, ok := f["value"]; !ok {
		l.errorf(v, kindKey, "missing required key %q in %q of %s", "value", a, where)
	}
	return len(l.errs) == before
}
