package load

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load/internal/validate"
)

// Dormant pipelines and declared shared variables (seed 002). `enabled: false` keeps a
// pipeline from starting until a set_variable with `pipeline:` (or the seed's spelling
// `workflow:`) and `name: enabled`, or `/pipeline enable`, enables it on a subject.
// `session_variables:` declares shared variables with their defaults: the first
// declaration of a name gives its default, and another pipeline that declares a
// different one is an error naming both places.

// dormantKeys reads a pipeline's `enabled:` and `session_variables:` into p.
func (l *loader) dormantKeys(f map[string]entry, p *lang.Pipeline, where string) {
	if e, ok := f["enabled"]; ok {
		if on, ok := l.boolean(e); ok {
			p.Dormant = !on
		}
	}
	e, ok := f["session_variables"]
	if !ok {
		return
	}
	p.SessionVariables = l.keyValues(e, "session_variables of "+where)
	for _, kv := range p.SessionVariables {
		if !lang.VariableName().MatchString(kv.Key) {
			l.errorAt(kv.KeyPos, kindValue, "%q is not a variable name; use letters, digits and %q, starting with a letter or %q", kv.Key, "_", "_")
			continue
		}
		v, err := lang.ValueOf(kv.Value, nil)
		if err != nil || hasTemplate(kv.Value) {
			l.errorAt(kv.Value.Pos, kindValue, "the default of session variable %q must be a plain value, without {{ }}", kv.Key)
			continue
		}
		l.declareShared(kv, v, p.Name)
	}
}

// declareShared adds kv to the config's shared defaults, unless an earlier pipeline
// declared the name: the same default is fine, a different one is an error.
func (l *loader) declareShared(kv lang.KeyValue, v any, pipeline string) {
	for _, d := range l.cfg.SharedDefaults {
		if d.Key != kv.Key {
			continue
		}
		was, _ := lang.ValueOf(d.Value, nil)
		a, _ := json.Marshal(lang.JSONValue(was))
		b, _ := json.Marshal(lang.JSONValue(v))
		if string(a) != string(b) {
			l.errorAt(kv.KeyPos, kindValue, "session variable %q of pipeline %q has the default %s, but it is declared with the default %s at %s; one name has one default",
				kv.Key, pipeline, b, a, d.KeyPos)
		}
		return
	}
	l.cfg.SharedDefaults = append(l.cfg.SharedDefaults, kv)
}

// hasTemplate reports whether v holds a template anywhere.
func hasTemplate(v lang.Value) bool {
	if v.Template != nil {
		return true
	}
	for _, x := range v.List {
		if hasTemplate(x) {
			return true
		}
	}
	for _, kv := range v.Map {
		if hasTemplate(kv.Value) {
			return true
		}
	}
	return false
}

// enableTarget reads the `pipeline:` (or `workflow:`) of a set_variable: the pipeline
// whose `enabled` it sets. The name must then be `enabled`. It returns "" when neither
// key is there.
func (l *loader) enableTarget(f map[string]entry) string {
	p, hasP := f["pipeline"]
	w, hasW := f["workflow"]
	switch {
	case !hasP && !hasW:
		return ""
	case hasP && hasW:
		l.errorf(w.key, kindKey, "%q and %q say the same; write only %q", "pipeline", "workflow", "pipeline")
		return ""
	}
	if !hasP {
		p = w
	}
	name, ok := l.str(p)
	if !ok {
		return ""
	}
	if n, ok := f["name"]; ok && n.val.Value != "enabled" {
		l.errorf(n.val, kindValue, "set_variable with %q sets only the pipeline's %q, not %q (another pipeline's variables are its own)", p.key.Value, "enabled", n.val.Value)
	}
	if _, ok := l.pipelineNames[name]; !ok {
		names := make([]string, 0, len(l.pipelineNames))
		for k := range l.pipelineNames {
			names = append(names, k)
		}
		slices.Sort(names)
		l.errorf(p.val, kindRef, "%s", validate.UnknownName("pipeline", name, "", "pipelines", names))
	}
	return name
}

// dormantKeyNames are the pipeline keys this file reads.
var dormantKeyNames = []string{"enabled", "session_variables"}

// errorAt records an error at pos, for what is known by its position only.
func (l *reader) errorAt(pos lang.Pos, kind, format string, args ...any) {
	if l.full() {
		return
	}
	l.errs = append(l.errs, &lang.Error{Pos: pos, Message: fmt.Sprintf(format, args...), Kind: kind})
}
