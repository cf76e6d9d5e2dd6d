package run

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/sethvargo/go-githubactions"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// DefaultConfigPath is where the config lives on the default branch.
const DefaultConfigPath = ".github/pipelines.yaml"

// maxSettleRounds bounds effect → outcome → further effect rounds in one invocation
// (runs act one after another, and a run acts once per action stage it reaches, so a
// round per action stage is normal). Loops are bounded by the engine (a stage is entered
// at most a few times per event, Input.Visits); this is only a safety net. Past it, the
// state is saved as it stands — the effects not yet performed are asked for again on the
// next event — and the job fails.
const maxSettleRounds = 256

// Defaults of the `timeout` and `request_timeout` inputs: how long one invocation may
// take, and how long one request to GitHub may go unanswered. Both end the job with an
// error rather than letting a stalled GitHub hold it until the job's own limit; the
// next event carries on.
const (
	DefaultTimeout        = 5 * time.Minute
	defaultRequestTimeout = ghapi.DefaultRequestTimeout
)

// Runner is one invocation of the action: its Run, ReportCommand and SweepMain are the
// run, report and sweep commands. Everything it reads from the environment comes through
// Getenv, and its job log goes to Out; Now, Sleep, Transport and Webhooks are replaced by
// the simulator.
type Runner struct {
	Getenv    func(string) string
	Out       io.Writer
	Now       func() time.Time
	Sleep     func(context.Context, time.Duration) error // nil: real time
	Transport http.RoundTripper                          // nil: the network
	limits    ghapi.Limits
	act       *githubactions.Action
	// Webhooks carries webhook calls in simulate; nil: the network.
	Webhooks *WebhookEnv
	// stateKeys are the state key inputs; nil: none.
	stateKeys *state.Keys
	// Version is the version of the binary, for the User-Agent of webhook calls; "": dev.
	Version string
	// AppToken says the token is a GitHub App's though it acts as github-actions[bot]
	// (simulate's `token: app`); see ghapi.Options.AppToken.
	AppToken bool
	// dry records what a dry invocation would do; nil: it does it.
	dry *dryRun
}

// subjectResult is what one subject ended as, for outputs and the job summary.
type subjectResult struct {
	Number  int
	Status  string
	Stage   string
	Summary string
	Charts  []string // the Mermaid charts of its runs
}

// Run handles the event of GITHUB_EVENT_NAME / GITHUB_EVENT_PATH. Exit codes: 0 done
// (including "nothing to do"), 1 something failed and was reported, 2 bad environment.
func (r *Runner) Run(ctx context.Context) int {
	var name string
	var raw []byte
	prepare := func() (routed, int) {
		var path string
		name, path = r.Getenv("GITHUB_EVENT_NAME"), r.Getenv("GITHUB_EVENT_PATH")
		if name == "" || path == "" {
			r.act.Errorf("GITHUB_EVENT_NAME and GITHUB_EVENT_PATH must be set (run inside GitHub Actions, or use simulate)")
			return routed{}, 2
		}
		var err error
		if raw, err = os.ReadFile(path); err != nil {
			r.act.Errorf("reading the event: %v", err)
			return routed{}, 2
		}
		ev, err := route(name, raw)
		if err != nil {
			r.act.Errorf("%v; event left alone", err)
			return ev, 1
		}
		if !ev.Handled {
			if ev.Event == "schedule" {
				r.act.Infof("pipeline-action: a schedule has no subject; to advance the runs whose deadline passed, give the action `command: sweep`")
			} else {
				r.act.Infof("pipeline-action: %s is not an event pipelines react to; nothing to do", ev.Event)
			}
			return ev, 0
		}
		return ev, proceed
	}
	return r.invoke(ctx, prepare, func(ctx context.Context, client *ghapi.Client, ev routed) int {
		return r.runEvent(ctx, client, ev, r.inputKey(name, raw))
	})
}

// runEvent handles a routed event: every open pull request or issue it concerns, one
// after another.
func (r *Runner) runEvent(ctx context.Context, client *ghapi.Client, ev routed, key string) int {
	if ev.OwnStatus != nil {
		return r.checkOwnStatus(ctx, client, ev)
	}
	if ev.Pushed != "" {
		w, code := r.indexWork(ctx, client, ev, "push to "+ev.Pushed)
		if w == nil {
			return code
		}
		return w.pushed(ctx)
	}
	if len(ev.Foreign) > 0 {
		r.act.Infof("pipeline-action: %s lists %s of another repository; left out", ev.Event, strings.Join(ev.Foreign, ", "))
	}
	numbers := ev.Numbers
	if len(numbers) == 0 && ev.SHA != "" {
		var err error
		if numbers, err = client.OpenPRsForCommit(ctx, ev.SHA, ghapi.CommitHead{Repo: ev.HeadRepo, Branch: ev.HeadBranch}); err != nil {
			r.act.Errorf("%v", err)
			return 1
		}
	}
	if len(numbers) == 0 {
		r.act.Infof("pipeline-action: %s concerns no open pull request; nothing to do", ev.Event)
		return 0
	}
	code := 0
	var results []subjectResult
	for _, n := range numbers {
		if ctx.Err() != nil {
			code = 1
			break
		}
		res, err := r.subject(ctx, client, ev, n, key)
		if err != nil {
			r.act.Errorf("%s#%d: %v", ev.Repo, n, err)
			r.deferToSweep(ctx, client, ev, n, err)
			code = 1
			continue
		}
		if res != nil {
			results = append(results, *res)
		}
	}
	r.report(client, results)
	return code
}

// duration reads a duration input ("90s", "5m"), or def when it is not set.
func (r *Runner) duration(name string, def time.Duration) (time.Duration, error) {
	v := r.act.GetInput(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("input %s: %q is not a positive duration such as 30s or 5m", name, v)
	}
	return d, nil
}

// inputKey identifies the delivery: a re-run of a workflow keeps its run id, so a
// redelivered event is recognised.
func (r *Runner) inputKey(name string, raw []byte) string {
	if id := r.Getenv("GITHUB_RUN_ID"); id != "" {
		return "run-" + id
	}
	sum := sha256.Sum256(append([]byte(name+"\n"), raw...))
	return "payload-" + hex.EncodeToString(sum[:8])
}

// maxStateTries bounds the read-evaluate-write rounds of one subject: each round that
// finds the state branch moved since it was read (another event wrote it) reads again.
const maxStateTries = 8

// subject evaluates the event for one pull request and writes back what changed: read
// (one query: facts, config, comments and the state branch), evaluate, perform the
// effects, write the state branch with compare-and-swap, then the state comment. When
// the branch moved since it was read, all of it again — at most maxStateTries times,
// with a random wait between, then the job fails and the next event carries on.
func (r *Runner) subject(ctx context.Context, client *ghapi.Client, ev routed, number int, key string) (*subjectResult, error) {
	a := &attempt{stateBranch: lang.DefaultStateBranch}
	for try := 1; ; try++ {
		a.try = try
		began := r.Now()
		out, err := r.attempt(ctx, client, ev, number, key, a)
		if err == nil {
			err = r.follow(ctx, client, ev, number, key, a)
		}
		if !errors.Is(err, state.ErrConflict) {
			return out, err
		}
		if try == maxStateTries {
			return nil, fmt.Errorf("the state branch %s moved %d times while this event was handled (other events wrote it meanwhile); gave up without saving the state (%v): the next event carries on", a.stateBranch, try, err)
		}
		r.act.Infof("pipeline-action: #%d: the state branch %s moved since it was read (another event wrote it); reading and evaluating again (%d of %d)", number, a.stateBranch, try+1, maxStateTries)
		if err := r.wait(ctx, backoff(try, r.Now().Sub(began))); err != nil {
			return nil, err
		}
	}
}

// attempt is what the rounds of one subject carry from one to the next.
type attempt struct {
	try         int
	stateBranch string // settings.state_branch, once the config was read
	// outcomes are the outcomes of the effects earlier rounds performed: a round whose
	// save conflicted after them hands them to the next (engine.Input.Outcomes).
	outcomes []model.Outcome
	// issue: the subject is an issue; followers and associated are what the
	// saved state asks of other subjects.
	issue      bool
	followers  []model.Follower
	associated map[int][]model.Follower
	refs       map[model.PRRef][]model.Follower
}

// backoff is a random wait before round try+1, after a round that took round: up to
// 50ms·2^try (at most 2s), or up to round·2^try (at most maxBackoff) when that is longer.
// The waits grow with the round because the invocations that lost it race again: with
// waits shorter than a round (a slow GitHub, a busy runner) they all read again at once,
// one wins, and a crowd of events loses maxStateTries times and gives up; spread over
// windows that double in rounds, each finds a round of its own.
func backoff(try int, round time.Duration) time.Duration {
	limit := min(50*time.Millisecond<<try, 2*time.Second)
	if scaled := min(round<<try, maxBackoff); scaled > limit {
		limit = scaled
	}
	return time.Duration(mathrand.Int64N(int64(limit))) + time.Millisecond
}

// maxBackoff bounds one wait between rounds; with maxStateTries the waits stay well within
// the invocation's default timeout.
const maxBackoff = 30 * time.Second

// wait waits d, through the runner's sleep when it has one.
func (r *Runner) wait(ctx context.Context, d time.Duration) error {
	if r.Sleep != nil {
		return r.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

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
