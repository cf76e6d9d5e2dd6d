package run

import (
	"context"
	"errors"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// proceed is what a command's prepare returns when the invocation goes on.
const proceed = -1

// invoke is the frame every command of one invocation shares (run, report, sweep): it
// sets up the action's environment and checks the state key; prepare reads what the
// command acts on (an exit code other than proceed ends the invocation there); then the
// `timeout` and `request_timeout` inputs bound it, and body runs with a client of the
// event's repository. Exit code 2 is a bad environment.
func (r *Runner) invoke(ctx context.Context, prepare func() (routed, int), body func(context.Context, *ghapi.Client, routed) int) int {
	r.act = githubactions.New(githubactions.WithGetenv(r.Getenv), githubactions.WithWriter(r.Out))
	if !r.stateKeyOK() {
		return 2
	}
	if err := r.dryInput(); err != nil {
		r.act.Errorf("%v", err)
		return 2
	}
	ev, code := prepare()
	if code != proceed {
		return code
	}
	timeout, err := r.timeLimits()
	if err != nil {
		r.act.Errorf("%v", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.act.Errorf("pipeline-action: stopped after %s (the `timeout` input) because GitHub answered too slowly or not at all; what was done stands, and the next event carries on", timeout)
		}
	}()
	client, err := r.client(ev.Repo)
	if err != nil {
		r.act.Errorf("%v", err)
		return 2
	}
	defer func() { r.act.Infof("pipeline-action: API calls: %s", FormatCalls(client.Calls())) }()
	return body(ctx, client, ev)
}

func (r *Runner) client(repo string) (*ghapi.Client, error) {
	token := r.act.GetInput("token")
	if token == "" {
		token = r.Getenv("GITHUB_TOKEN")
	}
	if token == "" {
		return nil, errors.New("no token: set the `token` input (usually ${{ github.token }})")
	}
	return ghapi.New(ghapi.Options{
		Token:      token,
		RESTURL:    r.Getenv("GITHUB_API_URL"),
		GraphQLURL: r.Getenv("GITHUB_GRAPHQL_URL"),
		Repository: repo,
		Transport:  r.Transport,
		Limits:     r.limits,
		ReadOnly:   r.dry != nil,
		AppToken:   r.AppToken,
	})
}

// timeLimits reads the `timeout` and `request_timeout` inputs, sets r.limits from them (the
// invocation's deadline counts from now) and returns the invocation's timeout.
func (r *Runner) timeLimits() (time.Duration, error) {
	timeout, err := r.duration("timeout", DefaultTimeout)
	if err != nil {
		return 0, err
	}
	requestTimeout, err := r.duration("request_timeout", defaultRequestTimeout)
	if err != nil {
		return 0, err
	}
	r.limits = ghapi.Limits{RequestTimeout: requestTimeout, Deadline: r.Now().Add(timeout), Now: r.Now, Sleep: r.Sleep,
		Logf: func(f string, a ...any) { r.act.Warningf("pipeline-action: "+f, a...) }}
	return timeout, nil
}
