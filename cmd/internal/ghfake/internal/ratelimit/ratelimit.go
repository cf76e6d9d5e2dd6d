// Package ratelimit keeps GitHub's primary rate limits for the fake: the REST requests and
// the GraphQL points each identity may spend in an hour, the headers that tell a client
// where it stands, and the GraphQL cost of an operation by GitHub's formula.
package ratelimit

import (
	"net/http"
	"strconv"
	"time"
)

// GitHub's primary limits an hour. A workflow's GITHUB_TOKEN has 1,000 REST requests per
// repository and 1,000 GraphQL points; a GitHub App's installation token 5,000 of each
// (more for an installation on over 20 repositories or users, up to 12,500, and 15,000 on
// GitHub Enterprise Cloud: the fake keeps the floor); a user 5,000 of each.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#primary-rate-limit-for-github_token-in-github-actions
// https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#primary-rate-limit
const (
	GitHubToken = 1000
	AppToken    = 5000
	User        = 5000
)

// The resources GitHub counts apart, as x-ratelimit-resource names them.
const (
	Core    = "core"
	GraphQL = "graphql"
)

// Message is GitHub's message when an installation's primary limit is spent.
const Message = "API rate limit exceeded for installation ID 1."

// window is one identity's use of one resource in the hour that ends at reset.
type window struct {
	used  int
	reset time.Time
}

// Limits are the windows of every identity and resource. The fake's lock guards them.
type Limits struct {
	windows map[string]*window
	// Limit is the hourly limit of login (every resource).
	Limit func(login string) int
}

// New returns limits whose hourly limit for login is limit(login).
func New(limit func(login string) int) *Limits {
	return &Limits{windows: map[string]*window{}, Limit: limit}
}

// Status is where an identity stands after a request: what x-ratelimit-* say.
type Status struct {
	Resource          string
	Limit, Used, Left int
	Reset             time.Time
	// Refused is true when the request did not fit in what was left: GitHub answers it
	// with the limit's error and performs nothing.
	Refused bool
}

// Spend counts cost against login's resource at now, unless it does not fit in what is
// left of the hour: the window opens with the first request and closes an hour later, as
// GitHub's does (x-ratelimit-reset).
func (l *Limits) Spend(login, resource string, cost int, now time.Time) Status {
	key := resource + "\x00" + login
	w := l.windows[key]
	if w == nil || !now.Before(w.reset) {
		w = &window{reset: now.Add(time.Hour)}
		l.windows[key] = w
	}
	limit := l.Limit(login)
	st := Status{Resource: resource, Limit: limit, Reset: w.reset}
	if w.used+cost > limit {
		st.Refused = true
	} else {
		w.used += cost
	}
	st.Used, st.Left = w.used, limit-w.used
	if st.Refused {
		st.Left = 0 // what GitHub says of a refused request, whatever a cheaper one could still spend
	}
	return st
}

// Set spends login's resource to used at now (a test or scenario that starts with the hour
// partly spent).
func (l *Limits) Set(login, resource string, used int, now time.Time) {
	l.windows[resource+"\x00"+login] = &window{used: used, reset: now.Add(time.Hour)}
}

// Headers writes the x-ratelimit-* headers GitHub sends on every response.
func (st Status) Headers(h http.Header) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(st.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(st.Left))
	h.Set("X-RateLimit-Used", strconv.Itoa(st.Used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(st.Reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", st.Resource)
}

// Used is what login has spent of resource in the window running at now.
func (l *Limits) Used(login, resource string, now time.Time) int {
	if w := l.windows[resource+"\x00"+login]; w != nil && now.Before(w.reset) {
		return w.used
	}
	return 0
}
