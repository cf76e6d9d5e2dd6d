package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/gqlexec"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/perms"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
)

// resolver computes field "Type.field" of parent; args are the field's coerced arguments (with
// defaults). A nil result is null.
type resolver func(e *executor, parent any, args map[string]any) (any, error)

// resolvers are the implemented fields, keyed "Type.field". Connection, edge and PageInfo fields
// are generic (gqlexec); __typename is the executor's.
var resolvers = map[string]resolver{}

// executor runs an operation over the world for one token. It runs with Mu held.
type executor struct {
	s     *Env
	login string
	perms Permissions // the token's scopes; nil: every scope
	x     *gqlexec.Executor
}

// newExecutor is an executor of operations valid against sch with coerced variables vars.
func newExecutor(s *Env, sch *ast.Schema, login string, perms Permissions, vars map[string]any) *executor {
	e := &executor{s: s, login: login, perms: perms}
	e.x = &gqlexec.Executor{Schema: sch, Vars: vars, Resolve: e.resolver, TypeOf: typeOf, Forbidden: e.forbidden}
	return e
}

// resolver is the world's resolver of typ.field bound to e, or nil.
func (e *executor) resolver(typ, field string) gqlexec.Resolver {
	r := resolvers[typ+"."+field]
	if r == nil {
		return nil
	}
	return func(parent any, args map[string]any) (any, error) { return r(e, parent, args) }
}

// rootValue is the parent of Query and Mutation fields.
type rootValue = gqlexec.RootValue

// conn is a page of a connection; edge one of its items with its cursor.
type (
	conn = gqlexec.Conn
	edge = gqlexec.Edge
)

// errorOf is a typed GraphQL error.
func errorOf(typ, format string, args ...any) error { return gqlexec.Errorf(typ, format, args...) }

func cursor(i int) string { return gqlexec.Cursor(i) }

func intArg(args map[string]any, name string) (int, bool) { return gqlexec.IntArg(args, name) }

func strArg(args map[string]any, name string) string { return gqlexec.StrArg(args, name) }

func paginate(field string, items []any, args map[string]any) (*conn, error) {
	return gqlexec.Paginate(field, items, args)
}

// Env is what the resolvers answer from: the world and its JSON, and the server's count of
// the requests so far by kind (read while the caller holds Mu).
type Env struct {
	*shapes.Shapes
	Counts func() map[string]int
}

// Execute runs operation op, valid against sch with coerced variables vars, for login's token
// with scopes p (nil: every scope). It returns the data and the error entries of the answer,
// and the fields the fake does not implement. The caller holds Mu.
func (s *Env) Execute(sch *ast.Schema, login string, p perms.Permissions, op *ast.OperationDefinition, vars map[string]any) (data any, errs []any, unexpected []string) {
	e := newExecutor(s, sch, login, p, vars)
	data = e.x.Run(op)
	return data, e.x.Errors, e.x.Unexpected
}
