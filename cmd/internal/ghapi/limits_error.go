package ghapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

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

// isGraphQL reports whether req goes to GitHub's GraphQL endpoint.
func isGraphQL(req *http.Request) bool { return strings.HasSuffix(req.URL.Path, "/graphql") }
