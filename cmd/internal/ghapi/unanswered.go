package ghapi

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"

	"github.com/google/go-github/v60/github"
)

// unanswered reports whether a request that failed with err may still have been performed
// (engine.Outcome.Unknown). GitHub performed nothing when it refused the request (a 4xx
// other than 408, a rate limit) or when the request never left (the connection was
// refused, the host not found). Anything else may have reached GitHub and been performed
// before the answer was lost: no answer in time (TimeoutError, 408, the invocation's own
// deadline), a 5xx (a 502 or 504 from a proxy says nothing of what GitHub did behind
// it), a connection cut after the request was sent.
func unanswered(err error) bool {
	if err == nil {
		return false
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		return true
	}
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	if errors.As(err, &rl) || errors.As(err, &ab) {
		return false
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		code := er.Response.StatusCode
		return code == http.StatusRequestTimeout || code >= 500
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return !notSent(err)
	}
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// notSent reports whether a transport error happened before the request left: no
// connection was made.
func notSent(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
