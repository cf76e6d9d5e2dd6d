package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxResponse bounds how much of an answer's body is read.
const MaxResponse = 64 << 10

// Options configure a Client.
type Options struct {
	Guard Guard
	// Allow, when not empty, lists the hosts calls may go to (settings.webhooks.allow:
	// "api.example.com", "*.example.com").
	Allow []string
	// Transport, when set, carries the requests instead of the network (simulate, tests).
	// The guard still resolves and checks each host before a request is handed to it.
	Transport http.RoundTripper
	// TLS configures TLS of the network transport (tests give their own roots); nil is
	// the system's.
	TLS *tls.Config
	// UserAgent is sent with each request.
	UserAgent string
}

// Client makes webhook calls.
type Client struct {
	opts Options
	http *http.Client
}

// Request is one call.
type Request struct {
	Method string
	URL    string
	// Host is the host (and port) the config writes: URL must name exactly it.
	Host    string
	Header  http.Header
	Body    []byte
	Timeout time.Duration
}

// Response is what came back. Body holds at most MaxResponse bytes; Truncated says there
// was more.
type Response struct {
	Status      int
	ContentType string
	Body        []byte
	Truncated   bool
}

// New returns a client. Without a Transport it dials the network through the guard: no
// proxy (a proxy would resolve the host itself, out of the guard's sight), TLS 1.2 or later.
func New(opts Options) *Client {
	rt := opts.Transport
	if rt == nil {
		dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: -1}
		tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
		if opts.TLS != nil {
			tlsConfig = opts.TLS.Clone()
		}
		rt = &http.Transport{
			Proxy:                  nil,
			DialContext:            opts.Guard.DialContext(dialer),
			TLSClientConfig:        tlsConfig,
			TLSHandshakeTimeout:    10 * time.Second,
			ResponseHeaderTimeout:  0, // the call's timeout bounds it
			MaxResponseHeaderBytes: 64 << 10,
			DisableKeepAlives:      true,
			ForceAttemptHTTP2:      true,
		}
	} else {
		rt = &checked{guard: &opts.Guard, next: rt}
	}
	return &Client{opts: opts, http: &http.Client{
		Transport: rt,
		// A redirect is not followed: its answer is the call's answer (a 3xx is not the
		// status a stage expects, unless it says so).
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// checked hands a request to a transport that does not dial (simulate's stubs) only once
// the guard has resolved its host and found every address allowed.
type checked struct {
	guard *Guard
	next  http.RoundTripper
}

func (c *checked) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, err := c.guard.Resolve(req.Context(), req.URL.Hostname()); err != nil {
		return nil, err
	}
	return c.next.RoundTrip(req)
}

// Do makes the call. A call refused before anything was sent is a *RefusedError.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	u, err := c.check(r)
	if err != nil {
		return nil, err
	}
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, u.String(), body)
	if err != nil {
		return nil, &RefusedError{Why: err.Error()}
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if r.Body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.opts.UserAgent != "" {
		req.Header.Set("User-Agent", c.opts.UserAgent)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var refused *RefusedError
		if errors.As(err, &refused) {
			return nil, refused
		}
		if errors.Is(err, context.DeadlineExceeded) && r.Timeout > 0 {
			return nil, fmt.Errorf("no answer within %s", r.Timeout)
		}
		return nil, describe(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("reading the answer (status %d): %v", resp.StatusCode, describe(err))
	}
	out := &Response{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: b}
	if len(b) > MaxResponse {
		out.Body, out.Truncated = b[:MaxResponse], true
	}
	return out, nil
}

// check refuses a request whose url is not https, names another host than r.Host, carries
// credentials, or whose host the allow list does not list.
func (c *Client) check(r Request) (*url.URL, error) {
	u, err := url.Parse(r.URL)
	switch {
	case err != nil:
		return nil, &RefusedError{Why: fmt.Sprintf("the url does not parse: %v", err)}
	case u.Scheme != "https":
		return nil, &RefusedError{Why: fmt.Sprintf("%s is not https", u.Redacted())}
	case u.User != nil:
		return nil, &RefusedError{Why: "the url carries credentials"}
	case u.Host == "" || !strings.EqualFold(u.Host, r.Host):
		return nil, &RefusedError{Why: fmt.Sprintf("the url calls %q, not %q, the host the config writes", u.Host, r.Host)}
	case !HostAllowed(u.Host, c.opts.Allow):
		return nil, &RefusedError{Why: fmt.Sprintf("%s is not in settings.webhooks.allow", u.Host)}
	}
	return u, nil
}

// HostAllowed reports whether host (maybe with a port) matches allow ("api.example.com",
// "*.example.com": any subdomain); an empty list allows any host.
func HostAllowed(host string, allow []string) bool {
	if len(allow) == 0 {
		return true
	}
	name := strings.ToLower(host)
	if h, _, err := net.SplitHostPort(name); err == nil {
		name = h
	}
	for _, a := range allow {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == strings.ToLower(host) || a == name:
			return true
		case strings.HasPrefix(a, "*.") && strings.HasSuffix(name, a[1:]) && len(name) > len(a)-1:
			return true
		}
	}
	return false
}

// describe shortens a transport error to what happened, without the url (which the
// stage's message names already).
func describe(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused
	}
	return err
}
