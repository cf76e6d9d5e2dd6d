package ghfake

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/gqlexec"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/schemafile"
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
// project's copy found by schemafile.Find, else the embedded subset.
func loadSchema() (*ast.Schema, string, error) {
	schemaOnce.Do(func() {
		path, ok := schemafile.Find(SchemaEnv)
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

// graphQLSchema is the schema this server validates against: the one set by useSchema (tests), else
// loadSchema's.
func (s *Server) graphQLSchema() (*ast.Schema, string, error) {
	s.Mu.Lock()
	sch, from := s.schema, s.schemaFrom
	s.Mu.Unlock()
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
		rest.WriteJSON(w, http.StatusInternalServerError, rest.ErrorBody(err.Error()))
		return
	}
	var req gqlRequest
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		s.flag("POST /api/graphql: body is not JSON: %v", err)
		rest.WriteJSON(w, http.StatusBadRequest, rest.ErrorBody("Problems parsing JSON"))
		return
	}
	op, vars, errs := gqlexec.Prepare(sch, req.Query, req.OperationName, req.Variables)
	if len(errs) > 0 {
		var out []any
		var note string
		if from == subsetName {
			note = " (validated against " + subsetName + ", which holds only what the fake implements; set " + SchemaEnv + " to GitHub's full schema.graphql to check the document itself)"
		}
		for _, e := range errs {
			s.flag("POST /api/graphql: %s%s", e.Error(), note)
			out = append(out, gqlexec.ErrorJSON(e))
		}
		rest.WriteJSON(w, http.StatusOK, obj{"errors": out})
		return
	}
	if s.graphQLLimited(w, login, op, vars) {
		return
	}
	if op.Operation == ast.Mutation {
		if rec, ok := w.(*statusRecorder); ok {
			rec.mutation = true
		}
		s.holdWrite(r, rest.Bearer(r))
	}
	s.Mu.Lock()
	data, failed, problems := s.graphql.Execute(sch, login, s.Granted(rest.Bearer(r)), op, vars)
	s.Mu.Unlock()
	for _, p := range problems {
		s.flag("POST /api/graphql: %s", p)
	}
	resp := obj{"data": data}
	if len(failed) > 0 {
		resp["errors"] = failed
	}
	if op.Operation == ast.Query { // answered (and recorded) before it releases a write
		s.noteRead(rest.Bearer(r)) // and counted before its client sees the answer and may end
	}
	rest.WriteJSON(w, http.StatusOK, resp)
}
