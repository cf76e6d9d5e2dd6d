package ghapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// A read-only client (Options.ReadOnly: `explain`, and the `dry_run` input) sends reads
// only: REST GETs and HEADs, and GraphQL documents without a mutation or a subscription.
// Anything else is refused here, before it reaches the token or the network, whatever
// the token may do; a refusal is a ReadOnlyError. What it cannot read for sure (a GraphQL
// body that is not a JSON request, a string that does not end) is refused too.

// ReadOnlyError is a request a read-only client refused without sending it.
type ReadOnlyError struct {
	Method, Path string
	Why          string
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("read-only: refused %s %s without sending it (%s); explain and dry_run never write", e.Method, e.Path, e.Why)
}

// NewReadOnlyTransport returns a transport that passes reads to base and refuses writes.
func NewReadOnlyTransport(base http.RoundTripper) http.RoundTripper {
	return &readOnlyTransport{base: base}
}

type readOnlyTransport struct{ base http.RoundTripper }

func (t *readOnlyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	refuse := func(why string) (*http.Response, error) {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, &ReadOnlyError{Method: r.Method, Path: r.URL.Path, Why: why}
	}
	graphql := isGraphQL(r)
	switch {
	case (r.Method == http.MethodGet || r.Method == http.MethodHead) && !graphql:
		return t.base.RoundTrip(r)
	case r.Method != http.MethodPost || !graphql:
		return refuse("a REST write")
	}
	data, err := readBody(r)
	if err != nil {
		return refuse("its body could not be read: " + err.Error())
	}
	query, ok := requestQuery(data)
	if !ok {
		return refuse("a GraphQL request that is not a JSON object with one query")
	}
	if why := graphQLWrites(query); why != "" {
		return refuse(why)
	}
	if r.GetBody == nil { // readBody consumed it: send a copy
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(data))
	}
	return t.base.RoundTrip(r)
}

// readBody reads r's body: from GetBody when it has one (r.Body stays unread), else r.Body.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if r.GetBody != nil {
		b, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		defer b.Close()
		return io.ReadAll(b)
	}
	defer r.Body.Close()
	return io.ReadAll(r.Body)
}

// requestQuery is the query of a GraphQL request's JSON body; ok is false unless the body
// is one JSON object with exactly one "query" key holding a string (a second one could be
// the one GitHub reads).
func requestQuery(data []byte) (query string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	n := 0
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return "", false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
		if k == "query" {
			n++
			if json.Unmarshal(v, &query) != nil {
				return "", false
			}
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || dec.More() {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false // something after the object
	}
	return query, n == 1
}

// graphQLWrites says why the GraphQL document doc may write, or "" when it only reads:
// an operation at its top level (outside selections and variable definitions) named
// `mutation` or `subscription`. Strings and comments are skipped; a string that does not
// end, or braces that do not match, may hide one and count as writing.
func graphQLWrites(doc string) string {
	depth := 0 // of { } and ( )
	for i := 0; i < len(doc); {
		c := doc[i]
		switch {
		case c == '#':
			for i < len(doc) && doc[i] != '\n' && doc[i] != '\r' {
				i++
			}
		case c == '"':
			end := stringEnd(doc, i)
			if end < 0 {
				return "a GraphQL string that does not end"
			}
			i = end
		case c == '{' || c == '(':
			depth++
			i++
		case c == '}' || c == ')':
			if depth--; depth < 0 {
				return "GraphQL braces that do not match"
			}
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(doc) && (doc[j] == '_' || doc[j] >= 'a' && doc[j] <= 'z' || doc[j] >= 'A' && doc[j] <= 'Z' || doc[j] >= '0' && doc[j] <= '9') {
				j++
			}
			if name := doc[i:j]; depth == 0 && (name == "mutation" || name == "subscription") {
				return "a GraphQL " + name
			}
			i = j
		default:
			i++
		}
	}
	if depth != 0 {
		return "GraphQL braces that do not match"
	}
	return ""
}

// stringEnd is the index just past the GraphQL string starting at doc[i] (a "…" string
// or a """…""" block string), or -1 when it does not end.
func stringEnd(doc string, i int) int {
	if strings.HasPrefix(doc[i:], `"""`) {
		for j := i + 3; j < len(doc); j++ {
			if doc[j] == '\\' && strings.HasPrefix(doc[j:], `\"""`) {
				j += 3
				continue
			}
			if strings.HasPrefix(doc[j:], `"""`) {
				return j + 3
			}
		}
		return -1
	}
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		case '\n', '\r':
			return -1
		}
	}
	return -1
}
