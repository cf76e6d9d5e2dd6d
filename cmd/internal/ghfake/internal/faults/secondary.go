package faults

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// GitHub's secondary rate limits on content-creating requests (REST writes and GraphQL
// mutations): at most 80 a minute and 500 an hour. GitHub counts them per identity, so
// every token of the action's identity shares them.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
const (
	PerMinute = 80
	PerHour   = 500
)

// SecondaryMessage is the message of GitHub's secondary rate limit answer.
const SecondaryMessage = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. " +
	"If you reach out to GitHub Support for help, please include the request ID."

// SecondaryWait is how long until one more request at now keeps to the limits, given the
// requests of the last hour (oldest first); 0 when it keeps to them already.
func SecondaryWait(last []time.Time, now time.Time) time.Duration {
	var wait time.Duration
	if len(last) >= PerHour {
		wait = last[len(last)-PerHour].Add(time.Hour).Sub(now)
	}
	if n := len(last); n >= PerMinute {
		if t := last[n-PerMinute].Add(time.Minute).Sub(now); t > wait {
			wait = t
		}
	}
	if wait > 0 && wait < time.Second {
		wait = time.Second
	}
	return max(wait, 0).Round(time.Second)
}

// CreatesContent reports whether the request is content-creating: a REST write, or a
// GraphQL mutation. The body of a GraphQL request is read and put back.
func CreatesContent(r *http.Request) bool {
	if r.URL.Path != "/api/graphql" {
		return r.Method != http.MethodGet && r.Method != http.MethodHead
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

// RateLimitedGraphQL is GitHub's GraphQL answer when the GraphQL rate limit is spent: a 200
// whose only content is a RATE_LIMITED error.
func RateLimitedGraphQL(message string) map[string]any {
	return map[string]any{"errors": []any{map[string]any{
		"type": "RATE_LIMITED", "code": "graphql_rate_limit", "message": message,
	}}}
}
