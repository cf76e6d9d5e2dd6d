package ghfake

import (
	"cmp"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/act"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/faults"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/graphql"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/loopback"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/ratelimit"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/rest"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Call is one request the server answered, in arrival order.
type Call struct {
	Method string
	Path   string
	Kind   string // "graphql", the REST operationId, or "unknown"
	Status int
	// Mutation is true for a GraphQL request whose operation is a mutation: what a
	// read-only command (doctor) must never send.
	Mutation bool
	// Began and Ended order the request's arrival and its answer among every other
	// request's: one that began after another ended waited for it (or came after it).
	Began, Ended int64
}

// Documentation URLs of GitHub's rate-limit errors.
const (
	docsSecondaryRateLimit = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
	docsPrimaryRateLimit   = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits"
)

// Server is the fake GitHub. Its zero value is not usable; call New (or faketest.New in tests). All methods are safe
// for concurrent use: one mutex guards the world, the counters and the injected faults.
type Server struct {
	// URL is the base URL of the server, e.g. http://127.0.0.1:4321; REST clients use URL+"/api/v3/".
	URL string

	srv *loopback.Listener // the loopback HTTP server

	// World is what the fake serves; its mutex guards the server's records too.
	*world.World
	shapes.Shapes // the JSON of the world, as served at URL

	// What GitHub's users and GitHub itself do to the world, and what tests read of it.
	act.PRs
	act.CI
	act.Views

	rest    *rest.Env    // the REST API
	graphql *graphql.Env // the GraphQL API

	tokens     map[string]string // token → login
	tick       atomic.Int64      // orders the arrivals and answers of requests (Call.Began, Ended)
	latency    atomic.Int64      // how long each request is held before it is served (SetLatency)
	stats      map[string]int
	calls      []Call
	unexpected []string
	faults     faults.Queue
	stop       chan struct{} // closed by Close: held requests end
	stopOnce   sync.Once
	schema     *ast.Schema // when set (tests), the GraphQL schema instead of loadSchema's
	schemaFrom string
	barrier    *Barrier               // armed by ArmBarrier; nil when none
	tokenSeq   int                    // tokens made by NewBotToken
	secondary  map[string][]time.Time // login → its content-creating requests of the last hour, when enforced
	primary    *ratelimit.Limits      // each identity's requests and points of the hour, when enforced
}

// New starts a fake GitHub on a local port. Close it when done.
func New() *Server {
	s := &Server{
		World:  world.New(func() time.Time { return time.Now().UTC() }),
		tokens: map[string]string{},
		stats:  map[string]int{},
		faults: faults.Queue{},
		stop:   make(chan struct{}),
	}
	s.srv = loopback.Listen(http.HandlerFunc(s.serveHTTP))
	s.URL = s.srv.URL
	s.Shapes = shapes.Shapes{World: s.World, URL: s.URL}
	s.PRs, s.CI, s.Views = act.PRs{Shapes: &s.Shapes}, act.CI{Shapes: &s.Shapes}, act.Views{Shapes: &s.Shapes}
	s.rest = &rest.Env{PRs: s.PRs, Flag: s.flag,
		Note:   func(msg string) { s.unexpected = append(s.unexpected, msg) },
		Counts: func() map[string]int { return s.stats }}
	s.graphql = &graphql.Env{Shapes: &s.Shapes, Counts: func() map[string]int { return s.stats }}
	return s
}

// Close stops the server, ending requests held by a Timeout fault first.
func (s *Server) Close() {
	s.stopOnce.Do(func() { close(s.stop) })
	s.srv.Close()
}

// Unexpected lists, in order, the requests the fake refused as GitHub would but that a correct
// client never sends: unknown routes, wrong methods, schema-invalid GraphQL, unimplemented
// operations and fields.
func (s *Server) Unexpected() []string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]string(nil), s.unexpected...)
}

// Token returns the token that authenticates as login (the same token on every call).
func (s *Server) Token(login string) string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	sum := sha1.Sum([]byte("token:" + login))
	tok := "ghp_" + hex.EncodeToString(sum[:])[:36]
	s.tokens[tok] = login
	return tok
}

// BotToken returns the token of the action's identity, github-actions[bot] (login github-actions
// in GraphQL).
func (s *Server) BotToken() string { return s.Token(BotLogin) }

// Stats returns the number of requests by kind: "graphql" or a REST operationId.
func (s *Server) Stats() map[string]int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	out := make(map[string]int, len(s.stats))
	for k, v := range s.stats {
		out[k] = v
	}
	return out
}

// ResetStats forgets the counted requests (Stats and Calls), not the world.
func (s *Server) ResetStats() {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.stats = map[string]int{}
	s.calls = nil
}

// Calls returns every request since the start or the last ResetStats, in order.
func (s *Server) Calls() []Call {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// statusRecorder records the call when the handler writes its status, before the body reaches
// the client, so that Stats and Calls include a request as soon as its response arrives.
type statusRecorder struct {
	http.ResponseWriter
	record   func(status int)
	done     bool
	mutation bool // a GraphQL mutation, known before the status is written
	// before runs once, before the status is sent: a read is counted by the barrier
	// before its client can see the answer (and end, leaving the barrier).
	before func()
}

func (w *statusRecorder) WriteHeader(code int) {
	if !w.done {
		w.done = true
		if w.before != nil {
			w.before()
		}
		w.record(code)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// SetLatency holds every request d after it arrives before serving it (0: none), as
// GitHub's round trip does: requests a client sends together then overlap (InARow)
// however quickly the fake would answer the first.
func (s *Server) SetLatency(d time.Duration) { s.latency.Store(int64(d)) }

// serveHTTP authenticates, routes and records every request.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	kind := "unknown"
	began := s.tick.Add(1)
	if d := time.Duration(s.latency.Load()); d > 0 {
		select {
		case <-time.After(d):
		case <-s.stop:
		case <-r.Context().Done():
		}
	}
	var rec *statusRecorder
	rec = &statusRecorder{ResponseWriter: w, record: func(status int) {
		s.Mu.Lock()
		s.stats[kind]++
		s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, Kind: kind, Status: status, Mutation: rec.mutation,
			Began: began, Ended: s.tick.Add(1)})
		s.Mu.Unlock()
	}}

	switch {
	case r.URL.Path == "/api/graphql":
		kind = "graphql"
		if r.Method != http.MethodPost {
			s.flag("%s %s: GraphQL takes POST", r.Method, r.URL.Path)
			rest.WriteJSON(rec, http.StatusNotFound, rest.NotFound())
			return
		}
		login, ok := s.auth(rec, r)
		if !ok {
			return
		}
		serve := func(w *statusRecorder) {
			if !s.secondaryLimited(w, r, login) {
				s.serveGraphQL(w, r, login)
			}
		}
		if !s.faulted(rec, r, kind, serve) {
			serve(rec)
		}
	case strings.HasPrefix(r.URL.Path, shapes.APIPrefix):
		op, params, err := rest.Route(r)
		if err != nil {
			s.flag("%s %s: %v", r.Method, r.URL.Path, err)
			rest.WriteJSON(rec, http.StatusNotFound, rest.NotFound())
			return
		}
		kind = op.OperationID
		login, ok := s.auth(rec, r)
		if !ok {
			return
		}
		serve := func(w *statusRecorder) {
			if s.primaryLimited(w, login) || s.secondaryLimited(w, r, login) {
				return
			}
			if isWrite(r.Method) {
				s.holdWrite(r, rest.Bearer(r))
			} else {
				w.before = func() { s.noteRead(rest.Bearer(r)) }
			}
			s.rest.Serve(w, r, op, params, login)
		}
		if !s.faulted(rec, r, kind, serve) {
			serve(rec)
		}
	default:
		s.flag("%s %s: not under %s or /api/graphql (absolute URL?)", r.Method, r.URL.Path, shapes.APIPrefix)
		rest.WriteJSON(rec, http.StatusNotFound, rest.NotFound())
	}
}

// flag records an unexpected request.
func (s *Server) flag(format string, args ...any) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.unexpected = append(s.unexpected, fmt.Sprintf(format, args...))
}

// auth resolves the request's token to a login, or answers 401 as GitHub does.
func (s *Server) auth(w http.ResponseWriter, r *http.Request) (string, bool) {
	tok := rest.Bearer(r)
	s.Mu.Lock()
	login, ok := s.tokens[tok]
	s.Mu.Unlock()
	if !ok || tok == "" {
		rest.WriteJSON(w, http.StatusUnauthorized, map[string]any{
			"message":           "Bad credentials",
			"documentation_url": "https://docs.github.com/rest",
			"status":            "401",
		})
		return "", false
	}
	return login, true
}

// InARow is the longest chain of calls each of which began after the one before it ended:
// how many round trips one after another the calls cost, whatever ran beside them.
// Two calls whose intervals [Began, Ended] share any tick overlapped and never chain; the
// calls may come in any order.
func InARow(calls []Call) int {
	byEnd := slices.Clone(calls)
	slices.SortFunc(byEnd, func(a, b Call) int { return cmp.Compare(a.Ended, b.Ended) })
	longest := make([]int, len(byEnd))
	most := 0
	for i, c := range byEnd {
		longest[i] = 1
		for j, d := range byEnd[:i] { // whatever ended before c began sorts before it
			if d.Ended < c.Began && longest[j]+1 > longest[i] {
				longest[i] = longest[j] + 1
			}
		}
		most = max(most, longest[i])
	}
	return most
}
