package ghfake

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/faults"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/loopback"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
)

// Fault is a response the fake gives to a request instead of its answer (Inject).
type Fault = faults.Fault

// GraphQLErrorMessages are the messages GitHub gives with each GraphQL error type, used
// when a fault with Errors has no Message.
var GraphQLErrorMessages = faults.GraphQLErrorMessages

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
	s.faults.Add(operationID, f)
}

// DropFaults removes every queued fault tagged tag and returns how many there were:
// faults no request met (or met as often as they were to).
func (s *Server) DropFaults(tag string) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.faults.Drop(tag)
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
		fields = faults.TopLevelFields(r)
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.faults.Take(kind, fields, s.Clock())
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
		rest.WriteJSON(w, http.StatusOK, faults.GraphQLBody(f, served))
		return
	}
	docs := rest.DocsURL
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
	if f.Status == http.StatusOK { // GraphQL's rate limit: a 200 carrying the error (internal/faults)
		rest.WriteJSON(w, f.Status, faults.RateLimitedGraphQL(f.Message))
		return
	}
	rest.WriteJSON(w, f.Status, map[string]any{"message": f.Message, "documentation_url": docs})
}
