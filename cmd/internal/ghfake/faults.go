package ghfake

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/loopback"
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

// FailNext makes the next request for operationID ("pulls/merge", or "graphql") answer status with
// {"message": message}, once. Several calls queue several faults.
func (s *Server) FailNext(operationID string, status int, message string) {
	s.Inject(operationID, Fault{Status: status, Message: message})
}

// Inject queues f for the requests of operationID ("pulls/merge", or "graphql"). A request
// meets the first queued fault that matches it (Field); several calls queue several faults.
func (s *Server) Inject(operationID string, f Fault) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.faults[operationID] = append(s.faults[operationID], f)
}

// DropFaults removes every queued fault tagged tag and returns how many there were:
// faults no request met (or met as often as they were to).
func (s *Server) DropFaults(tag string) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	n := 0
	for op, q := range s.faults {
		kept := q[:0]
		for _, f := range q {
			if f.Tag == tag {
				n++
				continue
			}
			kept = append(kept, f)
		}
		s.faults[op] = kept
	}
	return n
}

// faulted answers the request with a fault queued by Inject, if one matches it. A fault
// that is Performed (or Partial) first serves the request into a recorder the client
// never sees, so that the world changes as if it had been answered.
func (s *Server) faulted(w *statusRecorder, r *http.Request, kind string, serve func(*statusRecorder)) bool {
	f, ok := s.takeFault(r, kind)
	if !ok {
		return false
	}
	var served []byte
	if f.Performed || f.Partial {
		inner := loopback.NewBufferWriter()
		lost := &statusRecorder{ResponseWriter: inner, record: func(int) {}}
		serve(lost)
		w.mutation = lost.mutation
		served = inner.Body.Bytes()
	}
	s.answerFault(w, r, f, served)
	return true
}

// takeFault finds the first queued fault of kind that matches r and counts the request
// against it.
func (s *Server) takeFault(r *http.Request, kind string) (Fault, bool) {
	s.Mu.Lock()
	queued := len(s.faults[kind]) > 0
	s.Mu.Unlock()
	if !queued {
		return Fault{}, false
	}
	var fields []string
	if kind == "graphql" {
		fields = topLevelFields(r)
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	now := s.Clock()
	q := s.faults[kind]
	for i := 0; i < len(q); i++ {
		f := &q[i]
		if !f.Until.IsZero() && now.After(f.Until) {
			q = slices.Delete(q, i, i+1)
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
			q = slices.Delete(q, i, i+1)
		}
		s.faults[kind] = q
		return out, true
	}
	s.faults[kind] = q
	return Fault{}, false
}

// topLevelFields are the names of the fields the GraphQL request's operation selects at
// its top level (mutations: createCommitOnBranch, ...). The body is put back.
func topLevelFields(r *http.Request) []string {
	data, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	var req gqlRequest
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

// answerFault writes the fault's answer. A rate-limit fault is answered as GitHub answers
// one: its headers, and the documentation_url go-github recognises; a timeout holds the
// request until the client disconnects or the server closes, and is recorded with status 0.
// served is the answer a Performed or Partial fault's request got.
func (s *Server) answerFault(w *statusRecorder, r *http.Request, f Fault, served []byte) {
	s.Mu.Lock()
	now := s.Clock()
	s.Mu.Unlock()
	if f.Timeout {
		// Read the body first: the server notices a client that leaves only once it has.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		w.done = true
		w.record(0)
		return
	}
	if len(f.Errors) > 0 {
		writeJSON(w, http.StatusOK, graphQLFaultBody(f, served))
		return
	}
	docs := docsURL
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		docs = docsSecondaryRateLimit
	}
	if strings.Contains(strings.ToLower(f.Message), "secondary rate limit") {
		docs = docsSecondaryRateLimit
	}
	if f.Reset > 0 {
		w.Header().Set("X-RateLimit-Limit", "1000")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Used", "1000")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(time.Duration(f.Reset)*time.Second).Unix(), 10))
		docs = docsPrimaryRateLimit
	}
	if f.Status == http.StatusOK { // GraphQL's rate limit: a 200 carrying the error (secondary.go)
		writeJSON(w, f.Status, rateLimitedGraphQL(f.Message))
		return
	}
	writeJSON(w, f.Status, map[string]any{"message": f.Message, "documentation_url": docs})
}

// graphQLFaultBody is GitHub's 200 answer carrying the fault's errors: with null data, or
// (Partial) with the data the request was served and any errors it had.
func graphQLFaultBody(f Fault, served []byte) map[string]any {
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
