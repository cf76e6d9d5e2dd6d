package ghfake

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// SchemaEnv names an environment variable that may point at GitHub's schema.graphql. Without it the
// fake uses the copy this project keeps in testdata/github/graphql/schema.graphql when it runs from
// a checkout of the project (tests, go run), and its embedded subset of the schema otherwise (a
// built binary, as in the action's image).
const SchemaEnv = "GHFAKE_SCHEMA"

// schemaSubset is the part of GitHub's schema the fake serves: the Query and Mutation fields it
// implements and every type they reach, cut from testdata/github/graphql/schema.graphql by
// TestSchemaSubsetUpToDate. Documents the fake can answer validate against it as against the whole.
//
//go:embed schema_subset.graphql
var schemaSubset string

// subsetName names the embedded subset in errors.
const subsetName = "ghfake's embedded schema_subset.graphql"

var (
	schemaOnce sync.Once
	schema     *ast.Schema
	schemaFrom string // the path loaded, or subsetName
	schemaErr  error

	subsetOnce sync.Once
	subset     *ast.Schema
	subsetErr  error
)

// loadSchema loads GitHub's schema once per process (it is 1.2 MB): $GHFAKE_SCHEMA, else the
// project's copy found by findSchema, else the embedded subset.
func loadSchema() (*ast.Schema, string, error) {
	schemaOnce.Do(func() {
		path, ok := findSchema()
		if !ok {
			schema, schemaErr = loadSubset()
			schemaFrom = subsetName
			return
		}
		schemaFrom = path
		b, err := os.ReadFile(path)
		if err != nil {
			schemaErr = fmt.Errorf("reading GitHub's schema: %w", err)
			return
		}
		schema, schemaErr = gqlparser.LoadSchema(&ast.Source{Name: path, Input: string(b)})
		if schemaErr != nil {
			schemaErr = fmt.Errorf("loading GitHub's schema %s: %w", path, schemaErr)
		}
	})
	return schema, schemaFrom, schemaErr
}

// Preload loads the GraphQL schema now, once per process, so that the first GraphQL request
// is not slower than the others (a client with a short timeout would give up on it).
func Preload() error {
	_, _, err := loadSchema()
	return err
}

// loadSubset loads the embedded subset once per process.
func loadSubset() (*ast.Schema, error) {
	subsetOnce.Do(func() {
		subset, subsetErr = gqlparser.LoadSchema(&ast.Source{Name: "schema_subset.graphql", Input: schemaSubset})
		if subsetErr != nil {
			subsetErr = fmt.Errorf("loading %s: %w", subsetName, subsetErr)
		}
	})
	return subset, subsetErr
}

// schemaPath is where the project keeps GitHub's schema, relative to the root of its module.
var schemaPath = filepath.Join("testdata", "github", "graphql", "schema.graphql")

// modulePath is this project's module, as its go.mod declares it.
const modulePath = "github.com/org/pipeline-action"

// findSchema locates GitHub's full schema.graphql: $GHFAKE_SCHEMA (used as given, so a wrong path
// is an error rather than a silent fallback), else testdata/github/graphql/schema.graphql at the
// root of this project's module, found from this source file or from the working directory (the
// nearest directory above with a go.mod, which must declare this module, so that another
// project's testdata is never taken). ok is false when neither is there.
func findSchema() (path string, ok bool) {
	if p := os.Getenv(SchemaEnv); p != "" {
		return p, true
	}
	var starts []string
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		root, ok := moduleRoot(dir)
		if !ok {
			continue
		}
		p := filepath.Join(root, schemaPath)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// moduleRoot is the nearest directory at or above dir with a go.mod, if that go.mod declares this
// project's module.
func moduleRoot(dir string) (string, bool) {
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			return dir, modfileDeclares(b, modulePath)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// modfileDeclares reports whether the go.mod text b declares module mod.
func modfileDeclares(b []byte, mod string) bool {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" && strings.Trim(f[1], `"`) == mod {
			return true
		}
	}
	return false
}

// graphQLSchema is the schema this server validates against: the one set by useSchema (tests), else
// loadSchema's.
func (s *Server) graphQLSchema() (*ast.Schema, string, error) {
	s.mu.Lock()
	sch, from := s.schema, s.schemaFrom
	s.mu.Unlock()
	if sch != nil {
		return sch, from, nil
	}
	return loadSchema()
}

// gqlRequest is the body githubv4 and other clients POST.
type gqlRequest struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`
}

// serveGraphQL parses and validates the document against GitHub's schema, then executes it over the
// world. Every refusal is answered in GitHub's form (200 with errors) and recorded as unexpected.
func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request, login string) {
	sch, from, err := s.graphQLSchema()
	if err != nil {
		s.flag("POST /api/graphql: %v", err)
		writeJSON(w, http.StatusInternalServerError, errorBody(err.Error()))
		return
	}
	var req gqlRequest
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		s.flag("POST /api/graphql: body is not JSON: %v", err)
		writeJSON(w, http.StatusBadRequest, errorBody("Problems parsing JSON"))
		return
	}
	doc, errs := parseAndValidate(sch, req.Query)
	var op *ast.OperationDefinition
	var vars map[string]any
	if len(errs) == 0 {
		op, errs = pickOperation(doc, req.OperationName)
	}
	if len(errs) == 0 {
		var verr error
		if vars, verr = validator.VariableValues(sch, op, normalizeVars(req.Variables)); verr != nil {
			errs = gqlerror.List{toGQLError(verr)}
		}
	}
	if len(errs) > 0 {
		var out []any
		var note string
		if from == subsetName {
			note = " (validated against " + subsetName + ", which holds only what the fake implements; set " + SchemaEnv + " to GitHub's full schema.graphql to check the document itself)"
		}
		for _, e := range errs {
			s.flag("POST /api/graphql: %s%s", e.Error(), note)
			out = append(out, gqlErrorJSON(e))
		}
		writeJSON(w, http.StatusOK, obj{"errors": out})
		return
	}
	if op.Operation == ast.Mutation {
		if rec, ok := w.(*statusRecorder); ok {
			rec.mutation = true
		}
		s.holdWrite(r, bearer(r))
	}
	s.mu.Lock()
	e := &executor{s: s, schema: sch, login: login, vars: vars, perms: s.granted(bearer(r))}
	data := e.run(op)
	problems := e.unexpected
	s.mu.Unlock()
	for _, p := range problems {
		s.flag("POST /api/graphql: %s", p)
	}
	resp := obj{"data": data}
	if len(e.errors) > 0 {
		resp["errors"] = e.errors
	}
	if op.Operation == ast.Query { // answered (and recorded) before it releases a write
		s.noteRead(bearer(r)) // and counted before its client sees the answer and may end
	}
	writeJSON(w, http.StatusOK, resp)
}

// parseAndValidate parses a document and runs the validator's rules.
func parseAndValidate(sch *ast.Schema, query string) (*ast.QueryDocument, gqlerror.List) {
	doc, err := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if err != nil {
		return nil, gqlerror.List{toGQLError(err)}
	}
	if errs := validator.ValidateWithRules(sch, doc, nil); len(errs) > 0 { // nil: the spec's rules
		return nil, errs
	}
	return doc, nil
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

// gqlErrorJSON is an error entry as GitHub writes it.
func gqlErrorJSON(e *gqlerror.Error) obj {
	o := obj{"message": e.Message}
	if len(e.Locations) > 0 {
		var locs []any
		for _, l := range e.Locations {
			locs = append(locs, obj{"line": l.Line, "column": l.Column})
		}
		o["locations"] = locs
	}
	if len(e.Path) > 0 {
		o["path"] = e.Path
	}
	if rule, ok := e.Extensions["code"]; ok {
		o["extensions"] = obj{"code": rule}
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
