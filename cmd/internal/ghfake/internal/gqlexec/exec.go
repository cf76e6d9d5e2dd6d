// Package gqlexec executes a validated GraphQL operation over resolvers the caller supplies:
// field collection with fragments and @skip/@include, completion of lists, objects, abstract
// types and scalars, error entries in GitHub's form, and the generic fields of connections.
package gqlexec

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Resolver computes one field of parent; args are the field's coerced arguments (with defaults).
// A nil result is null.
type Resolver func(parent any, args map[string]any) (any, error)

// Executor walks a validated operation's selection sets. Resolve, TypeOf and Forbidden are the
// caller's; Errors and Unexpected are what the run recorded.
type Executor struct {
	Schema *ast.Schema
	Vars   map[string]any
	// Resolve returns the resolver of typ.field, or nil when the caller has none (then the
	// generic connection fields are tried).
	Resolve func(typ, field string) Resolver
	// TypeOf names the object type of a value of an interface or union field ("" for none).
	TypeOf func(v any) string
	// Forbidden reports whether typ (field "") or typ.field may not be seen; it records its
	// own error entry at path.
	Forbidden func(typ, field string, path []any) bool

	Errors     []any
	Unexpected []string
}

// RootValue is the parent of Query and Mutation fields.
type RootValue struct{}

// Run executes op and returns its data.
func (e *Executor) Run(op *ast.OperationDefinition) any {
	root := "Query"
	switch op.Operation {
	case ast.Mutation:
		root = "Mutation"
	case ast.Subscription:
		e.Fail(nil, "subscriptions are not served over HTTP", false)
		return nil
	}
	return e.selectionSet(root, RootValue{}, op.SelectionSet, nil)
}

// omap is a JSON object that keeps the order of the query's fields.
type omap struct {
	keys []string
	vals map[string]any
}

func (m *omap) set(k string, v any) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

// MarshalJSON writes the keys in selection order.
func (m *omap) MarshalJSON() ([]byte, error) {
	return appendJSON(nil, m)
}

// appendJSON appends v's JSON to buf: objects and lists of the answer are written here, in one
// buffer, and only their leaves go through json.Marshal. (Each MarshalJSON's output is checked
// and copied again by every object around it: a deep answer would cost its size times its
// depth.)
func appendJSON(buf []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case *omap:
		if x == nil {
			return append(buf, "null"...), nil
		}
		buf = append(buf, '{')
		for i, k := range x.keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			kb, _ := json.Marshal(k)
			buf = append(append(buf, kb...), ':')
			if buf, err = appendJSON(buf, x.vals[k]); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	case []any:
		if x == nil {
			return append(buf, "null"...), nil
		}
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			if buf, err = appendJSON(buf, e); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(buf, b...), nil
}

// Error is an error a resolver answers as GitHub does: an entry with a type (NOT_FOUND,
// STALE_DATA, FORBIDDEN, UNPROCESSABLE...) and a message.
type Error struct{ Type, Msg string }

func (g *Error) Error() string { return g.Msg }

// Errorf is a typed GraphQL error.
func Errorf(typ, format string, args ...any) error {
	return &Error{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

// Fail records an error entry for path; loud ones are also unexpected requests.
func (e *Executor) Fail(path []any, msg string, loud bool) {
	e.FailTyped(path, "", msg, loud)
}

// FailTyped records an error entry of type typ ("" for none) for path.
func (e *Executor) FailTyped(path []any, typ, msg string, loud bool) {
	entry := map[string]any{"message": msg}
	if typ != "" {
		entry["type"] = typ
	}
	if len(path) > 0 {
		entry["path"] = append([]any(nil), path...)
	}
	if loud {
		entry["type"] = "GHFAKE_NOT_IMPLEMENTED"
		e.Unexpected = append(e.Unexpected, msg)
	}
	e.Errors = append(e.Errors, entry)
}

// fieldGroup is the fields sharing one response key.
type fieldGroup struct {
	key    string
	fields []*ast.Field
}

// collect gathers the fields of sel that apply to concrete type typ, following fragments and
// honouring @skip and @include.
func (e *Executor) collect(typ string, sel ast.SelectionSet, groups []fieldGroup, index map[string]int) []fieldGroup {
	for _, s := range sel {
		switch x := s.(type) {
		case *ast.Field:
			if !e.included(x.Directives) {
				continue
			}
			key := x.Alias
			if key == "" {
				key = x.Name
			}
			if i, ok := index[key]; ok {
				groups[i].fields = append(groups[i].fields, x)
				continue
			}
			index[key] = len(groups)
			groups = append(groups, fieldGroup{key: key, fields: []*ast.Field{x}})
		case *ast.InlineFragment:
			if e.included(x.Directives) && e.applies(x.TypeCondition, typ) {
				groups = e.collect(typ, x.SelectionSet, groups, index)
			}
		case *ast.FragmentSpread:
			if x.Definition != nil && e.included(x.Directives) && e.applies(x.Definition.TypeCondition, typ) {
				groups = e.collect(typ, x.Definition.SelectionSet, groups, index)
			}
		}
	}
	return groups
}

// included evaluates @skip and @include.
func (e *Executor) included(dirs ast.DirectiveList) bool {
	if d := dirs.ForName("skip"); d != nil && d.ArgumentMap(e.Vars)["if"] == true {
		return false
	}
	if d := dirs.ForName("include"); d != nil && d.ArgumentMap(e.Vars)["if"] == false {
		return false
	}
	return true
}

// applies reports whether a fragment on cond applies to concrete type typ.
func (e *Executor) applies(cond, typ string) bool {
	if cond == "" || cond == typ {
		return true
	}
	def := e.Schema.Types[cond]
	if def == nil || !def.IsAbstractType() {
		return false
	}
	for _, p := range e.Schema.GetPossibleTypes(def) {
		if p.Name == typ {
			return true
		}
	}
	return false
}

// selectionSet executes sel on parent of concrete type typ.
func (e *Executor) selectionSet(typ string, parent any, sel ast.SelectionSet, path []any) any {
	out := &omap{vals: map[string]any{}}
	for _, g := range e.collect(typ, sel, nil, map[string]int{}) {
		f := g.fields[0]
		fpath := append(path[:len(path):len(path)], g.key)
		if f.Name == "__typename" {
			out.set(g.key, typ)
			continue
		}
		val, ok := e.resolve(typ, parent, f, fpath)
		if !ok {
			out.set(g.key, nil)
			continue
		}
		out.set(g.key, e.complete(f.Definition.Type, val, g.fields, fpath))
	}
	return out
}

// forbidden asks the caller's Forbidden, if any.
func (e *Executor) forbidden(typ, field string, path []any) bool {
	return e.Forbidden != nil && e.Forbidden(typ, field, path)
}

// resolve runs the resolver of typ.field; ok is false after an error. A parent that is a
// map[string]any answers its keys (mutation payloads).
func (e *Executor) resolve(typ string, parent any, f *ast.Field, path []any) (any, bool) {
	name := typ + "." + f.Name
	if e.forbidden(typ, f.Name, path) {
		return nil, false
	}
	if m, ok := parent.(map[string]any); ok {
		if v, ok := m[f.Name]; ok {
			return v, true
		}
		e.Fail(path, fmt.Sprintf("ghfake does not implement field %s (at %s)", name, pathString(path)), true)
		return nil, false
	}
	var r Resolver
	if e.Resolve != nil {
		r = e.Resolve(typ, f.Name)
	}
	if r == nil {
		r = genericResolver(typ, f.Name)
	}
	if r == nil {
		e.Fail(path, fmt.Sprintf("ghfake does not implement field %s (at %s)", name, pathString(path)), true)
		return nil, false
	}
	val, err := r(parent, f.ArgumentMap(e.Vars))
	if ge := (*Error)(nil); errors.As(err, &ge) {
		e.FailTyped(path, ge.Type, ge.Msg, false)
		return nil, false
	}
	if err != nil {
		e.Fail(path, err.Error(), false)
		return nil, false
	}
	return val, true
}

// complete turns a resolved value into JSON of type t, descending into objects and lists.
func (e *Executor) complete(t *ast.Type, val any, fields []*ast.Field, path []any) any {
	if isNil(val) {
		return nil
	}
	if t.Elem != nil {
		rv := reflect.ValueOf(val)
		if rv.Kind() != reflect.Slice {
			e.Fail(path, fmt.Sprintf("ghfake: resolver returned %T for a list", val), true)
			return nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = e.complete(t.Elem, rv.Index(i).Interface(), fields, append(path[:len(path):len(path)], i))
		}
		return out
	}
	def := e.Schema.Types[t.NamedType]
	if def == nil || def.IsLeafType() {
		return e.scalar(t.NamedType, val, path)
	}
	typ := def.Name
	if def.IsAbstractType() {
		if e.TypeOf != nil {
			typ = e.TypeOf(val)
		} else {
			typ = ""
		}
		if typ == "" {
			e.Fail(path, fmt.Sprintf("ghfake: no GraphQL type for %T", val), true)
			return nil
		}
	}
	var sub ast.SelectionSet
	for _, f := range fields {
		sub = append(sub, f.SelectionSet...)
	}
	if e.forbidden(typ, "", path) {
		return nil
	}
	return e.selectionSet(typ, val, sub, path)
}

// scalar serialises a leaf value as GitHub does: a BigInt as a decimal string, and an Int
// outside 32 bits not at all (graphql-ruby's IntegerEncodingError: an error entry and null),
// as for `databaseId` of the comments, reviews and check runs whose ids outgrew it.
func (e *Executor) scalar(typ string, val any, path []any) any {
	rv := reflect.ValueOf(val)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
	default:
		return val
	}
	n := rv.Int()
	switch typ {
	case "BigInt":
		return strconv.FormatInt(n, 10)
	case "Int":
		if n < math.MinInt32 || n > math.MaxInt32 {
			e.Fail(path, fmt.Sprintf("Integer out of bounds: %d @ %s. Consider using ID or GraphQL::Types::BigInt instead.", n, pathString(path)), false)
			return nil
		}
	}
	return val
}

// isNil reports nil, including typed nil pointers.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Ptr, reflect.Map, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

func pathString(path []any) string {
	var parts []string
	for _, p := range path {
		parts = append(parts, fmt.Sprint(p))
	}
	return strings.Join(parts, ".")
}
