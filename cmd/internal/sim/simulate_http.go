package sim

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/cmd/internal/webhook"
)

// Webhook calls in simulate. No call leaves the machine: a scenario's `http:` stubs answer
// them, through the same client as on a runner — its url rules and its address guard —
// with the transport replaced by the stubs and the resolver by the scenario's `dns:`
// (a host it does not name resolves to DefaultSimAddress, a public address that is never
// dialled). A call no stub answers fails its step loudly.

// DefaultSimAddress is what a host resolves to in simulate when `dns:` does not name it
// (TEST-NET-3, RFC 5737: public, never routed).
const DefaultSimAddress = "203.0.113.10"

// httpStub is the answer of one stub: `"POST https://api.example.com/x": {status, body}`.
// body is sent as JSON (a string as it is). echo: true answers with the request itself
// (echoAnswer), as a debugging endpoint or an error page that quotes its request would.
type httpStub struct {
	Status int  `yaml:"status"`
	Body   any  `yaml:"body"`
	Echo   bool `yaml:"echo"`
}

// httpStubs is the `http:` map of a scenario, and of an `http:` step that replaces it.
type httpStubs map[string]httpStub

// requestExpect is an expectation on the webhook calls made so far: those of method to
// url (the query included, as sent) number count (at least one when count is not given).
type requestExpect struct {
	Method string `yaml:"method"`
	URL    string `yaml:"url"`
	Count  *int   `yaml:"count"`
}

// simHTTP holds the stubs, what the scenario's names resolve to, and the calls made.
type simHTTP struct {
	mu         sync.Mutex
	stubs      httpStubs
	dns        map[string]string
	calls      []simCall
	unexpected []string
}

type simCall struct {
	method, url string
	header      http.Header
	body        string
}

func newSimHTTP(sc *scenario) *simHTTP {
	return &simHTTP{stubs: sc.HTTP, dns: sc.DNS}
}

// env is what a runner's webhook calls go through.
func (h *simHTTP) env() *run.WebhookEnv {
	return &run.WebhookEnv{Transport: h, Resolver: h}
}

// replace makes stubs the answers from now on.
func (h *simHTTP) replace(stubs httpStubs) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stubs = stubs
}

// LookupIPAddr answers from `dns:`, or DefaultSimAddress.
func (h *simHTTP) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	ip := DefaultSimAddress
	if a, ok := h.dns[strings.ToLower(host)]; ok {
		ip = a
	}
	parsed := net.ParseIP(ip)
	if parsed == nil {
		return nil, fmt.Errorf("dns: %q of %s is not an IP address", ip, host)
	}
	return []net.IPAddr{{IP: parsed}}, nil
}

// RoundTrip answers a call from its stub, and records it.
func (h *simHTTP) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	u := req.URL.String()
	h.calls = append(h.calls, simCall{method: req.Method, url: u, header: req.Header.Clone(), body: string(body)})
	stub, ok := h.stubs[req.Method+" "+u]
	if !ok {
		h.unexpected = append(h.unexpected, fmt.Sprintf("%s %s has no stub under http: (stubs: %s)", req.Method, u, strings.Join(h.stubKeys(), "; ")))
		return nil, fmt.Errorf("simulate: no stub for %s %s", req.Method, u)
	}
	status := stub.Status
	if status == 0 {
		status = http.StatusOK
	}
	var out []byte
	answer := stub.Body
	if stub.Echo && stub.Body != nil {
		h.unexpected = append(h.unexpected, fmt.Sprintf("the stub %s %s has both echo and body; an echoing stub answers with the request", req.Method, u))
		return nil, fmt.Errorf("simulate: the stub %s %s has both echo and body", req.Method, u)
	}
	if stub.Echo {
		answer = echoAnswer(req, u, body)
	}
	switch b := answer.(type) {
	case nil:
	case string:
		out = []byte(b)
	default:
		var err error
		if out, err = json.Marshal(b); err != nil {
			return nil, fmt.Errorf("simulate: the body of stub %s %s does not encode as JSON: %v", req.Method, u, err)
		}
	}
	resp := &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(out)), ContentLength: int64(len(out)), Request: req}
	return resp, nil
}

// echoAnswer is the answer of an echoing stub: the request as it arrived — its method,
// url, every header (by its canonical name; several values joined by ", ") and its body
// (the JSON sent, or the text when it is not JSON).
func echoAnswer(req *http.Request, u string, sent []byte) map[string]any {
	headers := map[string]any{}
	for k, vs := range req.Header {
		headers[k] = strings.Join(vs, ", ")
	}
	var body any
	if len(sent) > 0 && json.Unmarshal(sent, &body) != nil {
		body = string(sent)
	}
	return map[string]any{"method": req.Method, "url": u, "headers": headers, "body": body}
}

func (h *simHTTP) stubKeys() []string {
	keys := make([]string, 0, len(h.stubs))
	for k := range h.stubs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return []string{"none"}
	}
	return keys
}

// takeUnexpected returns the calls no stub answered since it was last asked.
func (h *simHTTP) takeUnexpected() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.unexpected
	h.unexpected = nil
	return out
}

// count is the number of calls of method to url made so far.
func (h *simHTTP) count(method, url string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.calls {
		if strings.EqualFold(c.method, method) && c.url == url {
			n++
		}
	}
	return n
}

// describeCalls lists the calls made so far, for a failed expectation.
func (h *simHTTP) describeCalls() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.calls) == 0 {
		return "no call"
	}
	var out []string
	for _, c := range h.calls {
		out = append(out, c.method+" "+c.url)
	}
	return strings.Join(out, ", ")
}

// checkRequests checks the `requests:` expectations.
func (s *simulation) checkRequests(report func(bool, string, string, string), xs []requestExpect) {
	for _, x := range xs {
		method := strings.ToUpper(cmp.Or(x.Method, "POST"))
		n := s.http.count(method, x.URL)
		what := fmt.Sprintf("calls %s %s", method, x.URL)
		if x.Count == nil {
			report(n > 0, what, "at least 1", fmt.Sprintf("%d (%s)", n, s.http.describeCalls()))
			continue
		}
		report(n == *x.Count, what, fmt.Sprint(*x.Count), fmt.Sprintf("%d (%s)", n, s.http.describeCalls()))
	}
}

// applyHTTP is the `http:` step: its stubs replace the scenario's from now on.
func (s *simulation) applyHTTP(stubs *httpStubs) string {
	s.http.replace(*stubs)
	keys := make([]string, 0, len(*stubs))
	for k := range *stubs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "http: no stub from now on (every webhook call fails)"
	}
	return "http: stubs from now on: " + strings.Join(keys, "; ")
}

var _ webhook.Resolver = (*simHTTP)(nil)
