package engine

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

var webhookMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// webhook loads the keys of a webhook stage: the request and the status it expects.
// Which hosts it may call is settings.webhooks.allow's matter, checked by validation.
func (sl *stageLoader) webhook(n *yaml.Node, f map[string]entry, s *Stage, where string) {
	if e, ok := f["on_success"]; ok {
		sl.target(e, &s.OnSuccess)
	}
	if e, ok := f["on_failure"]; ok {
		sl.target(e, &s.OnFailure)
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
	r := &Request{Pos: sl.pos(e.val), Method: "POST"}
	if x, ok := rf["url"]; ok {
		if u, ok := sl.str(x); ok && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			sl.errorf(x.val, kindValue, "%q must be an absolute http(s) URL, not %q", "url", u)
		}
		r.URL = sl.template(x)
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
		r.Headers = sl.keyValues(x, "headers of "+where)
		for _, h := range r.Headers {
			if h.Value.Kind == KindList || h.Value.Kind == KindMap || h.Value.Kind == KindNull {
				sl.errs = append(sl.errs, &Error{Pos: h.Value.Pos, Kind: kindType,
					Message: fmt.Sprintf("header %q must be a string", h.Key)})
			}
		}
	}
	if x, ok := rf["body"]; ok {
		r.Body = sl.value(x.val, "body", where)
	}
	s.Request = r
}
