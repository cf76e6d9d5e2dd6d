package ghfake

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// GitHub's secondary rate limits on content-creating requests (REST writes and GraphQL
// mutations): at most 80 a minute and 500 an hour. GitHub counts them per identity, so
// every token of the action's identity shares them.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
const (
	secondaryPerMinute = 80
	secondaryPerHour   = 500
)

// secondaryMessage is the message of GitHub's secondary rate limit answer.
const secondaryMessage = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. " +
	"If you reach out to GitHub Support for help, please include the request ID."

// EnforceSecondaryLimits makes the fake refuse content-creating requests past GitHub's
// secondary limits, as GitHub does: 403 with retry-after, the seconds until the request
// would be within them.
func (s *Server) EnforceSecondaryLimits() {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.secondary = map[string][]time.Time{}
}

// secondaryLimited answers the request with GitHub's secondary rate limit when it creates
// content past the limits, and otherwise counts it when it does.
func (s *Server) secondaryLimited(w http.ResponseWriter, r *http.Request, login string) bool {
	if !createsContent(r) {
		return false
	}
	s.Mu.Lock()
	if s.secondary == nil {
		s.Mu.Unlock()
		return false
	}
	now := s.Clock()
	var kept []time.Time
	for _, t := range s.secondary[login] {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	wait := secondaryWait(kept, now)
	if wait == 0 {
		kept = append(kept, now)
	}
	s.secondary[login] = kept
	s.Mu.Unlock()
	if wait == 0 {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
	writeJSON(w, http.StatusForbidden, map[string]any{"message": secondaryMessage, "documentation_url": docsSecondaryRateLimit})
	return true
}

// secondaryWait is how long until one more request at now keeps to the limits, given the
// requests of the last hour (oldest first); 0 when it keeps to them already.
func secondaryWait(last []time.Time, now time.Time) time.Duration {
	var wait time.Duration
	if len(last) >= secondaryPerHour {
		wait = last[len(last)-secondaryPerHour].Add(time.Hour).Sub(now)
	}
	if n := len(last); n >= secondaryPerMinute {
		if t := last[n-secondaryPerMinute].Add(time.Minute).Sub(now); t > wait {
			wait = t
		}
	}
	if wait > 0 && wait < time.Second {
		wait = time.Second
	}
	return max(wait, 0).Round(time.Second)
}

// createsContent reports whether the request is content-creating: a REST write, or a
// GraphQL mutation. The body of a GraphQL request is read and put back.
func createsContent(r *http.Request) bool {
	if r.URL.Path != "/api/graphql" {
		return isWrite(r.Method)
	}
	data, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return false
	}
	var body struct {
		Query string `json:"query"`
	}
	_ = json.Unmarshal(data, &body)
	return strings.HasPrefix(strings.TrimSpace(body.Query), "mutation")
}

// rateLimitedGraphQL is GitHub's GraphQL answer when the GraphQL rate limit is spent: a 200
// whose only content is a RATE_LIMITED error.
func rateLimitedGraphQL(message string) map[string]any {
	return map[string]any{"errors": []any{map[string]any{
		"type": "RATE_LIMITED", "code": "graphql_rate_limit", "message": message,
	}}}
}
