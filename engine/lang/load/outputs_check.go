package load

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// outputsRule is a compiled `outputs_schema` (or one of its properties or items). It is
// judged here rather than by a JSON Schema library: the five keywords the language allows
// take a page, and a library that judges all of JSON Schema brings localisation tables
// that would grow the action's image by almost a megabyte.
type outputsRule struct {
	typ      string
	props    map[string]*outputsRule
	required []string
	enum     []string // each allowed value as JSON, so that 3 and 3.0 are one value
	items    *outputsRule
}

// compileOutputs turns doc, a schema decoded from YAML that schemaNode has checked, into
// a rule.
func compileOutputs(doc any) *outputsRule {
	m, _ := doc.(map[string]any)
	r := &outputsRule{}
	r.typ, _ = m["type"].(string)
	if props, ok := m["properties"].(map[string]any); ok {
		r.props = make(map[string]*outputsRule, len(props))
		for k, v := range props {
			r.props[k] = compileOutputs(v)
		}
	}
	for _, v := range asList(m["required"]) {
		r.required = append(r.required, fmt.Sprint(v))
	}
	for _, v := range asList(m["enum"]) {
		r.enum = append(r.enum, asJSON(v))
	}
	if items, ok := m["items"]; ok {
		r.items = compileOutputs(items)
	}
	return r
}

// check adds to errs why v, at path, does not match r.
func (r *outputsRule) check(v any, path string, errs []string) []string {
	at := func(format string, args ...any) []string {
		where := path
		if where == "" {
			where = "/"
		}
		return append(errs, "at "+where+": "+fmt.Sprintf(format, args...))
	}
	if r.typ != "" && !hasType(v, r.typ) {
		return at("want %s, got %s", r.typ, typeOf(v))
	}
	if len(r.enum) > 0 && !slices.Contains(r.enum, asJSON(v)) {
		return at("value must be one of %s", strings.Join(r.enum, ", "))
	}
	if m, ok := v.(map[string]any); ok {
		for _, k := range r.required {
			if _, ok := m[k]; !ok {
				errs = at("missing property %q", k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(r.props)) {
			if pv, ok := m[k]; ok {
				errs = r.props[k].check(pv, path+"/"+k, errs)
			}
		}
	}
	if list, ok := v.([]any); ok && r.items != nil {
		for i, item := range list {
			errs = r.items.check(item, fmt.Sprintf("%s/%d", path, i), errs)
		}
	}
	return errs
}

func hasType(v any, typ string) bool {
	switch typ {
	case "integer":
		f, ok := number(v)
		return ok && f == math.Trunc(f)
	case "number":
		_, ok := number(v)
		return ok
	}
	return typeOf(v) == typ
}

func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	if _, ok := number(v); ok {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func asJSON(v any) string {
	if f, ok := number(v); ok {
		v = f
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
