package ghapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
)

// RateLimitError is a GraphQL request refused by one of GitHub's rate limits and not
// waited out. githubv4 turns any other answer than a 200 into an error that keeps the
// status and body but not the headers, and a 403 that is a rate limit (primary:
// x-ratelimit-remaining 0; secondary: retry-after or its message) would then read as a
// refusal of the token or a ruleset. So the transport answers such a request with this
// error instead, and callers can tell "wait and try later" from "never allowed".
type RateLimitError struct {
	Limit string // what GitHub said: the kind of limit and its message
	Why   string // why it was not waited out
	// At is when GitHub said the request may be sent again; zero when it did not say.
	At time.Time
}

func (e *RateLimitError) Error() string { return fmt.Sprintf("%s; %s", e.Limit, e.Why) }

// IsRateLimit reports whether err is a refusal by one of GitHub's rate limits, whether it
// came through GraphQL (RateLimitError) or REST (go-github's typed errors).
func IsRateLimit(err error) bool {
	var rl *RateLimitError
	var rest *github.RateLimitError
	var abuse *github.AbuseRateLimitError
	if errors.As(err, &rl) || errors.As(err, &rest) || errors.As(err, &abuse) {
		return true
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		h := er.Response.Header
		return (er.Response.StatusCode == http.StatusForbidden || er.Response.StatusCode == http.StatusTooManyRequests) &&
			(h.Get("Retry-After") != "" || h.Get("X-RateLimit-Remaining") == "0" ||
				strings.Contains(strings.ToLower(er.Message), "secondary rate limit"))
	}
	return false
}

// RetryAt is when GitHub said a request its rate limit refused with err may be sent again:
// the primary limit's reset (x-ratelimit-reset), or now plus a secondary limit's
// retry-after; zero when err is no rate limit or says nothing of when.
func RetryAt(err error, now time.Time) time.Time {
	var rl *RateLimitError
	var rest *github.RateLimitError
	var abuse *github.AbuseRateLimitError
	var er *github.ErrorResponse
	switch {
	case errors.As(err, &rl):
		return rl.At
	case errors.As(err, &rest):
		return rest.Rate.Reset.Time
	case errors.As(err, &abuse) && abuse.RetryAfter != nil:
		return now.Add(*abuse.RetryAfter)
	case IsRateLimit(err) && errors.As(err, &er) && er.Response != nil:
		h := er.Response.Header
		if s, err := strconv.ParseInt(strings.TrimSpace(h.Get("Retry-After")), 10, 64); err == nil && s >= 0 {
			return now.Add(time.Duration(s) * time.Second)
		}
		if s, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil && h.Get("X-RateLimit-Remaining") == "0" {
			return time.Unix(s, 0)
		}
	}
	return time.Time{}
}

// isGraphQL reports whether req goes to GitHub's GraphQL endpoint.
func isGraphQL(req *http.Request) bool { return strings.HasSuffix(req.URL.Path, "/graphql") }
