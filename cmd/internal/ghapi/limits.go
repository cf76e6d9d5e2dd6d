package ghapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine"
)

// Limits bound how long the client waits for GitHub, so that a stalled or rate-limited
// GitHub never holds the job: each request has a timeout, and rate limits are waited out
// only when the wait is short and ends before the invocation's deadline. A request that
// is not answered in time, or a limit not waited out, is an error; the job fails and the
// next event tries again.
type Limits struct {
	// RequestTimeout bounds each attempt of a request, its response body included.
	// Zero means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// MaxWait is the longest wait for one retry after a rate limit. Zero means
	// DefaultMaxWait; a longer wait fails the request at once.
	MaxWait time.Duration
	// Retries is how many times a rate-limited request is sent again. Zero means
	// DefaultRetries; negative means none.
	Retries int
	// Deadline is when the invocation must be done, by Now: no wait ends after it.
	// Zero means none.
	Deadline time.Time
	// Now and Sleep are the clock and the wait (time.Now and a timer by default);
	// simulations replace them so that a retry-after costs no real time.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Logf is told about every wait and every limit not waited out.
	Logf func(format string, args ...any)
}

// Defaults of Limits.
const (
	DefaultRequestTimeout = 30 * time.Second
	DefaultMaxWait        = 60 * time.Second
	DefaultRetries        = 3
)

// secondaryDefaultWait is GitHub's advice when a secondary rate limit says nothing of
// when to retry: "wait for at least one minute".
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit
const secondaryDefaultWait = time.Minute

func (l Limits) withDefaults() Limits {
	if l.RequestTimeout <= 0 {
		l.RequestTimeout = DefaultRequestTimeout
	}
	if l.MaxWait <= 0 {
		l.MaxWait = DefaultMaxWait
	}
	if l.Retries == 0 {
		l.Retries = DefaultRetries
	}
	if l.Now == nil {
		l.Now = time.Now
	}
	if l.Sleep == nil {
		l.Sleep = sleep
	}
	if l.Logf == nil {
		l.Logf = func(string, ...any) {}
	}
	return l
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TimeoutError is a request GitHub did not answer (or finish answering) in time.
type TimeoutError struct {
	Method, URL string
	After       time.Duration
}

// Error does not repeat the URL: the HTTP client's error around it names it.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("GitHub did not answer within %s", e.After)
}

// limitTransport applies Limits to every request: a timeout per attempt, and retries
// after rate limits.
type limitTransport struct {
	base   http.RoundTripper
	limits Limits
}

func (t *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var last time.Duration
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(req.Context())
			if req.Body != nil && req.Body != http.NoBody {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
		}
		resp, err := t.once(r)
		if err != nil {
			return nil, err
		}
		limit := rateLimited(resp)
		if limit == nil {
			limit = graphqlRateLimited(resp)
		}
		if limit == nil {
			return resp, nil
		}
		wait, why := t.wait(limit, attempt, last)
		if why != "" {
			t.limits.Logf("%s %s: %s; %s", req.Method, req.URL.Path, limit, why)
			if isGraphQL(req) {
				resp.Body.Close()
				return nil, &RateLimitError{Limit: limit.String(), Why: why, At: limit.until(t.limits.Now())}
			}
			return resp, nil
		}
		if attempt == 0 && req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
			return resp, nil // cannot be sent again
		}
		resp.Body.Close()
		t.limits.Logf("%s %s: %s; retrying in %s", req.Method, req.URL.Path, limit, wait)
		if err := t.limits.Sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		last = wait
	}
}

// once sends one attempt with the request timeout, which also bounds reading the body.
func (t *limitTransport) once(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.limits.RequestTimeout)
	timedOut := func(err error) error {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && req.Context().Err() == nil {
			return &TimeoutError{Method: req.Method, URL: req.URL.Redacted(), After: t.limits.RequestTimeout}
		}
		return err
	}
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, timedOut(err)
	}
	resp.Body = &timedBody{ReadCloser: resp.Body, cancel: cancel, timedOut: timedOut}
	return resp, nil
}

// timedBody ends the attempt's timeout when the body is closed, and reports a body cut
// short by it as a TimeoutError.
type timedBody struct {
	io.ReadCloser
	cancel   context.CancelFunc
	timedOut func(error) error
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = b.timedOut(err)
	}
	return n, err
}

func (b *timedBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// rateLimit is what a rate-limited response says.
type rateLimit struct {
	secondary     bool
	hasRetryAfter bool
	retryAfter    time.Duration // from retry-after in seconds
	retryAt       time.Time     // from retry-after as an HTTP date
	reset         time.Time     // from x-ratelimit-reset when x-ratelimit-remaining is 0
	message       string
}

func (l *rateLimit) String() string {
	kind := "rate limit"
	if l.secondary {
		kind = "secondary rate limit"
	}
	if l.message != "" {
		return fmt.Sprintf("GitHub's %s (%s)", kind, l.message)
	}
	return "GitHub's " + kind
}

// rateLimited tells GitHub's rate limits from other refusals, as GitHub documents them:
// a 403 or 429 with x-ratelimit-remaining: 0 is the primary limit (retry after
// x-ratelimit-reset); a 403 or 429 with retry-after, or whose message says "secondary
// rate limit", is a secondary limit (retry after retry-after, else the reset, else a
// minute). A 429 that says nothing more counts as a secondary limit; a 403 that says
// nothing more is a permission refused, not a limit. Nil when resp is no rate limit.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit
// The body of a 403 or 429 is read (it is small) and put back for the caller.
func rateLimited(resp *http.Response) *rateLimit {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	var body struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(data, &body)
	l := &rateLimit{message: body.Message}
	if v := strings.TrimSpace(resp.Header.Get("Retry-After")); v != "" {
		if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
			l.retryAfter, l.hasRetryAfter = time.Duration(s)*time.Second, true
		} else if at, err := http.ParseTime(v); err == nil {
			l.retryAt, l.hasRetryAfter = at, true
		}
		l.secondary = true
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if s, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			l.reset = time.Unix(s, 0)
		}
	}
	if strings.Contains(strings.ToLower(body.Message), "secondary rate limit") {
		l.secondary = true
	}
	switch {
	case l.secondary, !l.reset.IsZero():
		return l
	case resp.StatusCode == http.StatusTooManyRequests:
		l.secondary = true
		return l
	}
	return nil
}

// until is when the limit says a request may be sent again: its retry-after, else its
// reset; zero when it says neither.
func (l *rateLimit) until(now time.Time) time.Time {
	switch {
	case l.hasRetryAfter && !l.retryAt.IsZero():
		return l.retryAt
	case l.hasRetryAfter:
		return now.Add(l.retryAfter)
	}
	return l.reset
}

// wait returns how long to wait before the next attempt, or why there is none.
func (t *limitTransport) wait(l *rateLimit, attempt int, last time.Duration) (time.Duration, string) {
	var wait time.Duration
	switch {
	case l.hasRetryAfter && !l.retryAt.IsZero():
		wait = l.retryAt.Sub(t.limits.Now())
	case l.hasRetryAfter:
		wait = l.retryAfter
	case !l.reset.IsZero():
		wait = l.reset.Sub(t.limits.Now()) + time.Second // the reset is in whole seconds
	default:
		wait = secondaryDefaultWait
	}
	if wait < 0 {
		wait = 0
	}
	if l.secondary && 2*last > wait {
		wait = 2 * last // GitHub: wait exponentially longer while it goes on
	}
	switch {
	case t.limits.Retries < 0 || attempt >= t.limits.Retries:
		return 0, fmt.Sprintf("given up after %d %s", attempt+1, engine.Plural(attempt+1, "attempt", "attempts"))
	case wait > t.limits.MaxWait:
		return 0, fmt.Sprintf("not waiting %s for it (at most %s)", wait.Round(time.Second), t.limits.MaxWait)
	case !t.limits.Deadline.IsZero() && t.limits.Now().Add(wait).After(t.limits.Deadline):
		return 0, fmt.Sprintf("waiting %s would pass the deadline of this run", wait.Round(time.Second))
	}
	return wait, ""
}
