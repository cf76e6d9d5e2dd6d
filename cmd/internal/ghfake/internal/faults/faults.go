package faults

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Fault is a response the fake gives to a request instead of its answer (Inject).
type Fault struct {
	Status  int    // the HTTP status: 403, 429, 502...
	Message string // the message of the error body
	// RetryAfter, when positive, sends a retry-after header of that many seconds, as
	// GitHub does with a secondary rate limit.
	RetryAfter int
	// Reset, when positive, sends x-ratelimit-remaining: 0 and an x-ratelimit-reset that
	// many seconds from the world's clock, as GitHub does when the primary limit is spent.
	Reset int
	// Timeout answers nothing: the request is held until the client gives up (or the
	// server closes). Status and the rest are then unused.
	Timeout bool
	// Skip lets that many matching requests through, served as usual, before the fault
	// answers one.
	Skip int
	// Performed serves the request (the world changes) before the fault answers it: the
	// answer is what is lost, not the request.
	Performed bool
	// Errors (GraphQL) are the types of the errors a 200 answer carries, as GitHub
	// reports most GraphQL failures: RATE_LIMITED, FORBIDDEN, NOT_FOUND, ... The data is
	// null, unless Partial.
	Errors []string
	// Partial (with Errors) serves the request and answers its data with the errors added.
	Partial bool
	// Field (GraphQL) limits the fault to requests whose operation selects this top-level
	// field (createCommitOnBranch, repository, ...); other requests pass it by.
	Field string
	// Count is how many matching requests the fault answers; 0 means 1.
	Count int
	// Until, when set, makes the fault answer every matching request until the world's
	// clock passes it, whatever Count says; it is then dropped.
	Until time.Time
	// Tag names the fault for DropFaults.
	Tag string
}

// GraphQLErrorMessages are the messages GitHub gives with each GraphQL error type, used
// when a fault with Errors has no Message.
var GraphQLErrorMessages = map[string]string{
	"RATE_LIMITED":        "API rate limit already exceeded for installation ID 1.",
	"FORBIDDEN":           "Resource not accessible by integration",
	"NOT_FOUND":           "Could not resolve to a node with the global id given.",
	"SERVICE_UNAVAILABLE": "Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug.",
	"INTERNAL":            "Something went wrong while executing your query. Please include the request ID in any support request.",
	"UNPROCESSABLE":       "Unprocessable entity.",
}

// Queue holds the faults queued for each kind of request: a REST operationId, or "graphql".
// The fake's lock guards it.
type Queue map[string][]Fault

// Add queues f for the requests of kind.
func (q Queue) Add(kind string, f Fault) { q[kind] = append(q[kind], f) }

// Drop removes every queued fault tagged tag and returns how many there were.
func (q Queue) Drop(tag string) int {
	n := 0
	for kind, fs := range q {
		kept := fs[:0]
		for _, f := range fs {
			if f.Tag == tag {
				n++
				continue
			}
			kept = append(kept, f)
		}
		q[kind] = kept
	}
	return n
}

// Take finds the first queued fault of kind that matches a request selecting fields (GraphQL's
// top-level fields; none for REST) at now, and counts the request against it. A fault past
// its Until is dropped on the way.
func (q Queue) Take(kind string, fields []string, now time.Time) (Fault, bool) {
	fs := q[kind]
	defer func() { q[kind] = fs }()
	for i := 0; i < len(fs); i++ {
		f := &fs[i]
		if !f.Until.IsZero() && now.After(f.Until) {
			fs = slices.Delete(fs, i, i+1)
			i--
			continue
		}
		if f.Field != "" && !slices.Contains(fields, f.Field) {
			continue
		}
		if f.Skip > 0 {
			f.Skip--
			break
		}
		out := *f
		switch {
		case !f.Until.IsZero():
		case f.Count > 1:
			f.Count--
		default:
			fs = slices.Delete(fs, i, i+1)
		}
		return out, true
	}
	return Fault{}, false
}

// TopLevelFields are the names of the fields the GraphQL request's operation selects at its
// top level (mutations: createCommitOnBranch, ...). The body is put back.
func TopLevelFields(r *http.Request) []string {
	data, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	var req struct {
		Query         string `json:"query"`
		OperationName string `json:"operationName"`
	}
	if json.Unmarshal(data, &req) != nil {
		return nil
	}
	doc, perr := parser.ParseQuery(&ast.Source{Name: "query", Input: req.Query})
	if perr != nil {
		return nil
	}
	var out []string
	for _, op := range doc.Operations {
		if req.OperationName != "" && op.Name != req.OperationName {
			continue
		}
		for _, sel := range op.SelectionSet {
			if f, ok := sel.(*ast.Field); ok {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// GraphQLBody is GitHub's 200 answer carrying the fault's errors: with null data, or
// (Partial) with the data the request was served and any errors it had.
func GraphQLBody(f Fault, served []byte) map[string]any {
	body := map[string]any{"data": nil}
	var errs []any
	if f.Partial {
		var got map[string]any
		if json.Unmarshal(served, &got) == nil {
			body["data"] = got["data"]
			if prior, ok := got["errors"].([]any); ok {
				errs = prior
			}
		}
	}
	for _, t := range f.Errors {
		e := map[string]any{"type": t, "message": cmp.Or(f.Message, GraphQLErrorMessages[t])}
		if f.Field != "" {
			e["path"] = []any{f.Field}
		}
		errs = append(errs, e)
	}
	body["errors"] = errs
	return body
}
