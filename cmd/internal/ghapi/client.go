package ghapi

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/shurcooL/githubv4"
	"golang.org/x/oauth2"
)

// Client talks to one repository on GitHub with one token.
type Client struct {
	Owner, Repo string
	rest        *github.Client
	gql         *githubv4.Client
	calls       *counter
	now         func() time.Time // the clock of Limits: when a rate limit's wait ends (RetryAt)
	appToken    bool             // the token is a GitHub App's, whatever login it shows
}

// Options configure New. Empty URLs mean github.com.
type Options struct {
	Token      string
	RESTURL    string // GITHUB_API_URL: https://api.github.com, or https://HOST/api/v3
	GraphQLURL string // GITHUB_GRAPHQL_URL, e.g. https://api.github.com/graphql
	Repository string // owner/name
	Transport  http.RoundTripper
	Limits     Limits // timeouts and rate-limit retries; the zero value uses the defaults
	// ReadOnly refuses every write before it is sent: explain and dry_run.
	ReadOnly bool
	// AppToken says the token is a GitHub App's installation token even when it acts as
	// github-actions[bot] (simulate plays an app's token under that login); on GitHub an
	// app's token acts as <app>[bot], and the login tells.
	AppToken bool
}

// New returns a client for o.Repository.
func New(o Options) (*Client, error) {
	owner, repo, ok := strings.Cut(o.Repository, "/")
	if !ok || owner == "" || repo == "" {
		return nil, fmt.Errorf("repository %q is not owner/name", o.Repository)
	}
	base := o.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	calls := &counter{n: map[string]int{}}
	hc := &http.Client{Transport: &limitTransport{limits: o.Limits.withDefaults(), base: &oauth2.Transport{
		Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: o.Token}),
		Base:   &countingTransport{base: &scopeTransport{base: base}, calls: calls},
	}}}
	if o.ReadOnly { // outermost: a refused write is neither sent, retried nor counted
		hc.Transport = NewReadOnlyTransport(hc.Transport)
	}
	rest := github.NewClient(hc)
	if o.RESTURL != "" && strings.TrimRight(o.RESTURL, "/") != "https://api.github.com" {
		var err error
		u := strings.TrimRight(o.RESTURL, "/") + "/"
		if rest, err = rest.WithEnterpriseURLs(u, u); err != nil {
			return nil, fmt.Errorf("api url %q: %w", o.RESTURL, err)
		}
	}
	gql := githubv4.NewClient(hc)
	if o.GraphQLURL != "" {
		gql = githubv4.NewEnterpriseClient(o.GraphQLURL, hc)
	}
	return &Client{Owner: owner, Repo: repo, rest: rest, gql: gql, calls: calls, now: o.Limits.withDefaults().Now, appToken: o.AppToken}, nil
}

// Calls returns the number of API requests made so far, by kind ("graphql", "rest").
func (c *Client) Calls() map[string]int { return c.calls.snapshot() }

type counter struct {
	mu     sync.Mutex
	n      map[string]int
	writes int // content-creating requests
}

func (c *counter) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.n))
	for k, v := range c.n {
		out[k] = v
	}
	return out
}

type countingTransport struct {
	base  http.RoundTripper
	calls *counter
}

func (t *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	kind := "rest"
	if strings.HasSuffix(r.URL.Path, "/graphql") {
		kind = "graphql"
	}
	write := createsContent(r)
	t.calls.mu.Lock()
	t.calls.n[kind]++
	if write {
		t.calls.writes++
	}
	t.calls.mu.Unlock()
	return t.base.RoundTrip(r)
}
