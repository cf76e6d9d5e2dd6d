package load

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

var webhookMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// MaxWebhookRetries bounds on_error's retry of a webhook stage: its retries are made at
// once, in the same invocation.
const MaxWebhookRetries = 5

// secretRef is a reference to a secret in a header value: `{{ secrets.NAME }}`, alone in
// its braces. Secrets are read only there (see Header).
var secretRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`) })

// headerName is the spelling of an HTTP header name (a token).
var headerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$") })

// reservedHeaders are the headers the HTTP client sets itself; a config may not.
var reservedHeaders = []string{"host", "content-length", "transfer-encoding", "connection", "keep-alive",
	"proxy-authorization", "proxy-connection", "te", "trailer", "upgrade"}

// webhookLoader loads the keys of webhook stages: the request, its headers and secrets.
type webhookLoader struct{ *stageLoader }

// webhook loads the keys of a webhook stage: the request and the status it expects.
// Which hosts it may call is settings.webhooks' matter, checked by validation.
func (sl webhookLoader) webhook(n *yaml.Node, f map[string]entry, s *lang.Stage, where string) {
	if e, ok := f["on_success"]; ok {
		sl.target(e, &s.OnSuccess)
	}
	if e, ok := f["on_failure"]; ok {
		sl.target(e, &s.OnFailure)
		if oe, ok := f["on_error"]; ok && errorPolicyHasThen(oe.val) {
			sl.errorf(oe.val, kindKey, "%s has %q and %q's %q: say once where a failed call goes", where, "on_failure", "on_error", "then")
		}
	}
	if oe, ok := f["on_error"]; ok && s.OnError != nil && s.OnError.Retry > MaxWebhookRetries {
		sl.errorf(oe.val, kindValue, "%q of a webhook stage retries at most %d times (each retry calls again at once), not %d", "on_error", MaxWebhookRetries, s.OnError.Retry)
	}
	s.ExpectStatus = 200
	if e, ok := f["expect"]; ok {
		ef := sl.fields(e.val, "expect", section{where: "\"expect\" of " + where, known: []string{"status"}})
		if x, ok := ef["status"]; ok {
			if st, ok := sl.integer(x, 100); ok {
				if st > 599 {
					sl.errorf(x.val, kindValue, "%q must be an HTTP status between 100 and 599, not %d", "status", st)
				} else {
					s.ExpectStatus = st
				}
			}
		}
	}
	e, ok := f["request"]
	if !ok {
		sl.errorf(n, kindKey, "missing required key %q in %s", "request", where)
		return
	}
	where = fmt.Sprintf("%q of %s", "request", where)
	rf := sl.fields(e.val, "request", section{where: where, known: []string{"url", "method", "headers", "body"}})
	if e.val.Kind != yaml.MappingNode {
		return
	}
	r := &lang.Request{Pos: sl.pos(e.val), Method: "POST"}
	if x, ok := rf["url"]; ok {
		u, ok := sl.str(x)
		if ok && sl.webhookURL(x, u) {
			r.URL = sl.template(x)
		}
	} else {
		sl.errorf(e.val, kindKey, "missing required key %q in %s", "url", where)
	}
	if x, ok := rf["method"]; ok {
		if m, ok := sl.str(x); ok {
			x.val = &yaml.Node{Kind: x.val.Kind, Tag: x.val.Tag, Value: strings.ToUpper(m), Line: x.val.Line, Column: x.val.Column}
			r.Method, _ = sl.enum(x, webhookMethods)
		}
	}
	if x, ok := rf["headers"]; ok {
		r.Headers = sl.webhookHeaders(x, where)
	}
	if x, ok := rf["body"]; ok {
		if r.Method == "GET" {
			sl.errorf(x.key, kindKey, "a GET request has no %q; use POST, PUT or PATCH, or move the values into the url's query", "body")
		}
		if !sl.hasSecrets(x.val, "body") {
			r.Body = sl.value(x.val, "body", where)
		}
	}
	s.Request = r
}

// errorPolicyHasThen reports whether on_error n says where to go (a target, or `then`).
func errorPolicyHasThen(n *yaml.Node) bool {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		return n.Tag != "!!null"
	}
	_, ok := lookupKey(n, "then")
	return ok
}

// webhookURL checks what can be checked of a url as written: https, no credentials, and
// no secret. That its host is written literally is validation's (checkWebhooks). It
// reports whether the url is worth compiling.
func (sl webhookLoader) webhookURL(x entry, u string) bool {
	switch {
	case !strings.HasPrefix(u, "https://"):
		if strings.HasPrefix(u, "http://") {
			sl.errorf(x.val, kindValue, "%q must use https, not http: %q", "url", u)
		} else {
			sl.errorf(x.val, kindValue, "%q must be an absolute https URL, not %q", "url", u)
		}
		return true
	case secretRef().MatchString(u):
		sl.errorf(x.val, kindValue, "%q must not read secrets: a url is shown in logs and in the status comment; send a secret in a header", "url")
		return false
	}
	if host, ok := lang.ParseWebhookHost(u); ok && host != "" {
		authority := u[len("https://"):]
		if i := strings.IndexAny(authority, "/?#"); i >= 0 {
			authority = authority[:i]
		}
		if strings.Contains(authority, "@") {
			sl.errorf(x.val, kindValue, "%q must not carry credentials (%q); send them in a header", "url", "user@")
		} else if _, err := url.Parse("https://" + authority); err != nil {
			sl.errorf(x.val, kindValue, "%q has an invalid host %q", "url", authority)
		}
	}
	return true
}

// hasSecrets reports a reference to secrets in n (anywhere but a header value), and
// whether there was one.
func (sl webhookLoader) hasSecrets(n *yaml.Node, key string) bool {
	n = deref(n)
	found := false
	switch n.Kind {
	case yaml.ScalarNode:
		if secretRef().MatchString(n.Value) {
			sl.errorf(n, kindValue, "%q must not read secrets: only header values may (they are masked and never shown)", key)
			found = true
		}
	case yaml.SequenceNode, yaml.MappingNode:
		for _, c := range n.Content {
			found = sl.hasSecrets(c, key) || found
		}
	}
	return found
}

// webhookHeaders loads `headers:`: a mapping of names to scalars whose text may hold
// templates and `{{ secrets.NAME }}`.
func (sl webhookLoader) webhookHeaders(x entry, where string) []lang.Header {
	n := deref(x.val)
	if n.Kind != yaml.MappingNode {
		sl.errorf(n, kindType, "%q must be a mapping, not %s", "headers", describe(n))
		return nil
	}
	var out []lang.Header
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		name := k.Value
		switch {
		case !headerName().MatchString(name):
			sl.errorf(k, kindValue, "%q is not a header name (letters, digits and -)", name)
			continue
		case slices.Contains(reservedHeaders, strings.ToLower(name)):
			sl.errorf(k, kindValue, "header %q is set by the HTTP client; a webhook may not set it", name)
			continue
		case seen[strings.ToLower(name)]:
			sl.errorf(k, kindKey, "header %q is given twice in headers of %s", name, where)
			continue
		}
		seen[strings.ToLower(name)] = true
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			sl.errs = append(sl.errs, &lang.Error{Pos: sl.pos(v), Kind: kindType,
				Message: fmt.Sprintf("header %q must be a string", name)})
			continue
		}
		h := lang.Header{Key: name, Pos: sl.pos(k)}
		h.Parts = sl.headerParts(v)
		out = append(out, h)
	}
	return out
}

// headerParts splits a header value into text (templates compiled) and secrets.
func (sl webhookLoader) headerParts(v *yaml.Node) []lang.HeaderPart {
	src := v.Value
	if strings.ContainsAny(src, "\r\n") {
		sl.errorf(v, kindValue, "a header value must be one line")
		return nil
	}
	pos := sl.textPos(v)
	var parts []lang.HeaderPart
	text := func(from, to int) bool {
		if to <= from {
			return true
		}
		p := pos
		p.Col += utf8.RuneCountInString(src[:from])
		t, err := sl.exprs.Template(src[from:to], p)
		if err != nil {
			if strings.Contains(err.Message, `"secrets"`) {
				err.Message += "; a secret is read as {{ secrets.NAME }}, alone in its braces"
			}
			sl.errs = append(sl.errs, err)
			return false
		}
		parts = append(parts, lang.HeaderPart{Text: t})
		return true
	}
	last := 0
	for _, m := range secretRef().FindAllStringSubmatchIndex(src, -1) {
		if !text(last, m[0]) {
			return nil
		}
		parts = append(parts, lang.HeaderPart{Secret: strings.ToUpper(src[m[2]:m[3]])})
		last = m[1]
	}
	if !text(last, len(src)) {
		return nil
	}
	return parts
}
