package gqlexec

import (
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// Prepare parses query, validates it against sch, picks the operation named opName (any when
// the document holds one) and coerces the JSON-decoded variables.
func Prepare(sch *ast.Schema, query, opName string, vars map[string]any) (*ast.OperationDefinition, map[string]any, gqlerror.List) {
	doc, errs := ParseAndValidate(sch, query)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	op, errs := pickOperation(doc, opName)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	coerced, err := validator.VariableValues(sch, op, normalizeVars(vars))
	if err != nil {
		return nil, nil, gqlerror.List{toGQLError(err)}
	}
	return op, coerced, nil
}

// ParseAndValidate parses a document and runs the validator's rules. A valid document is
// kept for the next request with the same text against the same schema: a client sends the
// same few documents with other variables, and parsing and validating them again costs the
// tests that play thousands of invocations a tenth of their time. Execution only reads a
// document, so one kept document serves concurrent requests.
func ParseAndValidate(sch *ast.Schema, query string) (*ast.QueryDocument, gqlerror.List) {
	key := validKey{sch, query}
	if doc, ok := valid.Load(key); ok {
		return doc.(*ast.QueryDocument), nil
	}
	doc, err := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if err != nil {
		return nil, gqlerror.List{toGQLError(err)}
	}
	if errs := validator.ValidateWithRules(sch, doc, nil); len(errs) > 0 { // nil: the spec's rules
		return nil, errs
	}
	if validKept.Add(1) <= maxValidKept {
		valid.Store(key, doc)
	}
	return doc, nil
}

// valid holds the documents ParseAndValidate accepted, by schema and text; at most
// maxValidKept of them, so that a test generating documents cannot grow it without bound.
var (
	valid     sync.Map // validKey → *ast.QueryDocument
	validKept atomic.Int64
)

const maxValidKept = 1024

type validKey struct {
	sch   *ast.Schema
	query string
}

// pickOperation selects the operation to run, as GraphQL's GetOperation does.
func pickOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, gqlerror.List) {
	if name == "" {
		if len(doc.Operations) != 1 {
			return nil, gqlerror.List{gqlerror.Errorf("operationName is required when a document has several operations")}
		}
		return doc.Operations[0], nil
	}
	if op := doc.Operations.ForName(name); op != nil {
		return op, nil
	}
	return nil, gqlerror.List{gqlerror.Errorf("no operation named %q", name)}
}

func toGQLError(err error) *gqlerror.Error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return ge
	}
	return gqlerror.Wrap(err)
}

// ErrorJSON is an error entry as GitHub writes it.
func ErrorJSON(e *gqlerror.Error) map[string]any {
	o := map[string]any{"message": e.Message}
	if len(e.Locations) > 0 {
		var locs []any
		for _, l := range e.Locations {
			locs = append(locs, map[string]any{"line": l.Line, "column": l.Column})
		}
		o["locations"] = locs
	}
	if len(e.Path) > 0 {
		o["path"] = e.Path
	}
	if rule, ok := e.Extensions["code"]; ok {
		o["extensions"] = map[string]any{"code": rule}
	}
	return o
}

// normalizeVars turns json.Number into int64 or float64, the types the validator coerces.
func normalizeVars(v map[string]any) map[string]any {
	out := make(map[string]any, len(v))
	for k, x := range v {
		out[k] = normalizeValue(x)
	}
	return out
}

func normalizeValue(x any) any {
	switch t := x.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		return normalizeVars(t)
	case []any:
		out := make([]any, len(t))
		for i, y := range t {
			out[i] = normalizeValue(y)
		}
		return out
	}
	return x
}
