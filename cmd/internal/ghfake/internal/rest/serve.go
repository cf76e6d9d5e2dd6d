// Package rest answers the fake GitHub's REST API (under /api/v3/, GHES-style): it routes a
// request to its documented operation and answers it from the world, changing it through the
// same operations (package act, package world) the GraphQL mutations and the tests use.
package rest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/act"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Env is what the handlers answer from: the world, its JSON and its changes, and the
// server's records of the requests.
type Env struct {
	act.PRs
	// Flag records an unexpected request; Note does so while the caller holds Mu.
	Flag func(format string, args ...any)
	Note func(msg string)
	// Counts are the requests so far by kind ("graphql" or an operationId). The caller holds Mu.
	Counts func() map[string]int
}

// restCtx is one REST request being answered. Handlers run with Mu held.
type restCtx struct {
	w      http.ResponseWriter
	r      *http.Request
	op     operation
	params map[string]string
	login  string      // the authenticated user
	repo   *world.Repo // the {owner}/{repo} of the path, when it has one
	body   []byte
}

// restHandler answers an operation with a status and a JSON body (nil for none).
type restHandler func(s *Env, c *restCtx) (int, any)

// Serve runs the handler of a routed operation.
func (s *Env) Serve(w http.ResponseWriter, r *http.Request, op operation, params map[string]string, login string) {
	h, ok := Handlers[op.OperationID]
	if !ok {
		s.Flag("%s %s: operation %s is documented but not implemented by the fake", r.Method, r.URL.Path, op.OperationID)
		WriteJSON(w, http.StatusNotImplemented, ErrorBody("ghfake does not implement "+op.OperationID))
		return
	}
	c := &restCtx{w: w, r: r, op: op, params: params, login: login}
	if r.Body != nil {
		var err error
		if c.body, err = readAll(r); err != nil {
			WriteJSON(w, http.StatusBadRequest, ErrorBody("Problems parsing JSON"))
			return
		}
	}
	s.Mu.Lock()
	code, body := s.runHandler(h, c)
	s.Mu.Unlock()
	WriteJSON(w, code, body)
}

// runHandler resolves the repository of the path, then runs h. The caller holds Mu.
func (s *Env) runHandler(h restHandler, c *restCtx) (int, any) {
	if owner, ok := c.params["owner"]; ok {
		c.repo = s.Repos[owner+"/"+c.params["repo"]]
		if c.repo == nil || !s.Reaches(c.login, owner+"/"+c.params["repo"]) {
			return http.StatusNotFound, NotFound()
		}
	}
	if code, body, refused := s.refuseScope(c); refused {
		return code, body
	}
	return h(s, c)
}

// decode unmarshals the request body into v; an error is GitHub's 400.
func (c *restCtx) decode(v any) (int, any, bool) {
	if len(c.body) == 0 {
		return http.StatusBadRequest, ErrorBody("Problems parsing JSON"), false
	}
	if err := json.Unmarshal(c.body, v); err != nil {
		return http.StatusBadRequest, ErrorBody("Problems parsing JSON"), false
	}
	return 0, nil, true
}

// num is an integer path parameter; ok is false when it is not a number.
func (c *restCtx) num(name string) (int64, bool) {
	n, err := strconv.ParseInt(c.params[name], 10, 64)
	return n, err == nil
}

// issue resolves {issue_number} or {pull_number}; prOnly refuses plain issues.
func (c *restCtx) issue(prOnly bool) *world.Issue {
	name := "issue_number"
	if _, ok := c.params["pull_number"]; ok {
		name = "pull_number"
	}
	n, ok := c.num(name)
	if !ok {
		return nil
	}
	is := c.repo.Issues[int(n)]
	if is == nil || (prOnly && !is.IsPR) {
		return nil
	}
	return is
}

// paginate applies page and per_page (default 30, at most 100) and sets GitHub's Link header.
func (c *restCtx) paginate(items []any) []any {
	q := c.r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	if per > 100 {
		per = 100
	}
	page, _ := strconv.Atoi(q.Get("page"))
	if page <= 0 {
		page = 1
	}
	lo := (page - 1) * per
	if lo > len(items) {
		lo = len(items)
	}
	hi := min(lo+per, len(items))
	if hi < len(items) {
		u := *c.r.URL
		u.Scheme, u.Host = "http", c.r.Host
		qq := u.Query()
		qq.Set("page", strconv.Itoa(page+1))
		qq.Set("per_page", strconv.Itoa(per))
		u.RawQuery = qq.Encode()
		last := (len(items) + per - 1) / per
		qq.Set("page", strconv.Itoa(last))
		lastURL := u
		lastURL.RawQuery = qq.Encode()
		c.w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, u.String(), lastURL.String()))
	}
	return append([]any{}, items[lo:hi]...)
}

func readAll(r *http.Request) ([]byte, error) {
	defer r.Body.Close()
	return io.ReadAll(r.Body)
}
