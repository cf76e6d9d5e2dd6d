package ghapi

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// GitHub's secondary rate limits count content-creating requests per identity: REST
// writes (POST, PATCH, PUT, DELETE) and GraphQL mutations, at most 80 a minute and 500 an
// hour. The client counts those it sends (Writes), retries included, so that a caller
// making many (the sweep) can stop within a budget.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits

// Writes returns the number of content-creating requests sent so far.
func (c *Client) Writes() int {
	c.calls.mu.Lock()
	defer c.calls.mu.Unlock()
	return c.calls.writes
}

// createsContent reports whether r is a content-creating request: a REST write, or a
// GraphQL request whose query is a mutation (read from a copy of its body).
func createsContent(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	if !strings.HasSuffix(r.URL.Path, "/graphql") {
		return true
	}
	if r.GetBody == nil {
		return false
	}
	body, err := r.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	return isMutation(body)
}

// isMutation reads a GraphQL request's JSON body as far as its query, and reports whether
// the query is a mutation.
func isMutation(body io.Reader) bool {
	dec := json.NewDecoder(body)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		if key != "query" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
			continue
		}
		var q string
		if dec.Decode(&q) != nil {
			return false
		}
		return strings.HasPrefix(strings.TrimSpace(q), "mutation")
	}
	return false
}
