package run

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
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

// runner is one invocation of the run command. Everything it reads from the
// environment comes through getenv; now, sleep and transport are replaceable for
// simulate.
type Runner struct {
	Getenv    func(string) string
	Out       io.Writer
	Now       func() time.Time
	Sleep     func(context.Context, time.Duration) error // nil: real time
	Transport http.RoundTripper
	limits    ghapi.Limits
	Act       *githubactions.Action
	// unsupported collects the "not supported yet" stops of this invocation.
	Unsupported []string
	// webhooks carries webhook calls in simulate (webhooks.go); nil: the network.
	Webhooks *WebhookEnv
	// stateKeys are the state key inputs (statekey.go); nil: none.
	stateKeys *state.Keys
	// version is the version of the binary, for the User-Agent of webhook calls; "": dev.
	Version string
}

// subjectResult is what one subject ended as, for outputs and the job summary.
type subjectResult struct {
	Number  int
	Status  string
	Stage   string
	Summary string
}

// run handles the event of GITHUB_EVENT_NAME / GITHUB_EVENT_PATH. Exit codes: 0 done
// (including "nothing to do"), 1 something failed and was reported, 2 bad environment.
func (r *Runner) Run(ctx context.Context) int {
	r.Act = githubactions.New(githubactions.WithGetenv(r.Getenv), githubactions.WithWriter(r.Out))
	if !r.stateKeyOK() { // statekey.go
		return 2
	}
	name, path := r.Getenv("GITHUB_EVENT_NAME"), r.Getenv("GITHUB_EVENT_PATH")
	if name == "" || path == "" {
		r.Act.Errorf("GITHUB_EVENT_NAME and GITHUB_EVENT_PATH must be set (run inside GitHub Actions, or use simulate)")
		return 2
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		r.Act.Errorf("reading the event: %v", err)
		return 2
	}
	ev, err := Route(name, raw)
	if err != nil {
		r.Act.Errorf("%v; event left alone", err)
		return 1
	}
	timeout, err := r.timeLimits()
	if err != nil {
		r.Act.Errorf("%v", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.Act.Errorf("pipeline-action: stopped after %s (the `timeout` input) because GitHub answered too slowly or not at all; what was done stands, and the next event carries on", timeout)
		}
	}()
	if !ev.Handled {
		if ev.Event == "schedule" {
			r.Act.Infof("pipeline-action: a schedule has no subject; to advance the runs whose deadline passed, give the action `command: sweep`")
		} else {
			r.Act.Infof("pipeline-action: %s is not an event pipelines react to; nothing to do", ev.Event)
		}
		return 0
	}
	client, err := r.client(ev.Repo)
	if err != nil {
		r.Act.Errorf("%v", err)
		return 2
	}
	defer func() { r.Act.Infof("pipeline-action: API calls: %s", FormatCalls(client.Calls())) }()
	if len(ev.Foreign) > 0 {
		r.Act.Infof("pipeline-action: %s lists %s of another repository; left out", ev.Event, strings.Join(ev.Foreign, ", "))
	}
	numbers := ev.Numbers
	if len(numbers) == 0 && ev.SHA != "" {
		if numbers, err = client.OpenPRsForCommit(ctx, ev.SHA, ghapi.CommitHead{Repo: ev.HeadRepo, Branch: ev.HeadBranch}); err != nil {
			r.Act.Errorf("%v", err)
			return 1
		}
	}
	if len(numbers) == 0 {
		r.Act.Infof("pipeline-action: %s concerns no open pull request; nothing to do", ev.Event)
		return 0
	}
	key := r.inputKey(name, raw)
	code := 0
	var results []subjectResult
	for _, n := range numbers {
		if ctx.Err() != nil {
			code = 1
			break
		}
		res, err := r.subject(ctx, client, ev, n, key)
		if err != nil {
			r.Act.Errorf("%s#%d: %v", ev.Repo, n, err)
			code = 1
			continue
		}
		if res != nil {
			results = append(results, *res)
		}
	}
	r.report(results)
	return code
}

func (r *Runner) client(repo string) (*ghapi.Client, error) {
	token := r.Act.GetInput("token")
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
	})
}

// duration reads a duration input ("90s", "5m"), or def when it is not set.
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
		Logf: func(f string, a ...any) { r.Act.Warningf("pipeline-action: "+f, a...) }}
	return timeout, nil
}

func (r *Runner) duration(name string, def time.Duration) (time.Duration, error) {
	v := r.Act.GetInput(name)
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

func (r *Runner) configPath() string {
	if p := r.Act.GetInput("config"); p != "" {
		return p
	}
	return DefaultConfigPath
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
	a := &attempt{stateBranch: engine.DefaultStateBranch}
	for try := 1; ; try++ {
		a.try = try
		out, err := r.attempt(ctx, client, ev, number, key, a)
		if err == nil {
			err = r.follow(ctx, client, ev, number, key, a) // run_issue.go
		}
		if !errors.Is(err, state.ErrConflict) {
			return out, err
		}
		if try == maxStateTries {
			return nil, fmt.Errorf("the state branch %s moved %d times while this event was handled (other events wrote it meanwhile); gave up without saving the state (%v): the next event carries on", a.stateBranch, try, err)
		}
		r.Act.Infof("pipeline-action: #%d: the state branch %s moved since it was read (another event wrote it); reading and evaluating again (%d of %d)", number, a.stateBranch, try+1, maxStateTries)
		if err := r.wait(ctx, backoff(try)); err != nil {
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
	outcomes []engine.Outcome
	// issue: the subject is an issue (run_issue.go); followers and associated are what the
	// saved state asks of other subjects.
	issue      bool
	followers  []engine.Follower
	associated map[int][]engine.Follower
	refs       map[engine.PRRef][]engine.Follower // run_multipr.go
}

// backoff is a random wait before round try+1: up to 50ms·2^try, at most 2s.
func backoff(try int) time.Duration {
	limit := 50 * time.Millisecond << try
	if limit > 2*time.Second {
		limit = 2 * time.Second
	}
	return time.Duration(mathrand.Int64N(int64(limit))) + time.Millisecond
}

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

// attempt is one round of subject. A state branch that moved since it was read is
// state.ErrConflict.
func (r *Runner) attempt(ctx context.Context, client *ghapi.Client, ev routed, number int, key string, a *attempt) (*subjectResult, error) {
	path := r.configPath()
	var snap *ghapi.Snapshot
	var cfg *engine.Config
	for read := 1; ; read++ {
		var err error
		if snap, err = r.snapshot(ctx, client, ev, number, path, a); err != nil { // run_issue.go
			return nil, err
		}
		if snap.Config == nil {
			r.Act.Infof("pipeline-action: no %s on %s; nothing to do", ConfigWhere(path), snap.DefaultBranch)
			return nil, nil
		}
		if cfg, err = LoadConfig(snap.Config); err != nil {
			var list engine.ErrorList
			if !errors.As(err, &list) {
				return nil, fmt.Errorf("%w on %s", err, snap.DefaultBranch)
			}
			r.annotate(err)
			return nil, fmt.Errorf("the config on %s is invalid; nothing was changed", snap.DefaultBranch)
		}
		b := cfg.Settings.StateBranch
		if b == "" || b == a.stateBranch {
			break
		}
		if read == 2 {
			return nil, fmt.Errorf("the config on %s changed its state_branch while it was read; nothing was changed", snap.DefaultBranch)
		}
		// The config names another state branch than the one read with it: read again
		// (one query more on every event, for a config that names its own branch).
		a.stateBranch = b
	}
	if snap.Facts.PR == nil && snap.Facts.Issue == nil {
		r.Act.Infof("pipeline-action: #%d is neither a pull request nor an issue of %s; nothing to do", number, snap.Facts.Repo)
		return nil, nil
	}
	info := func(f string, args ...any) { r.Act.Infof("pipeline-action: "+f, args...) }
	warn := func(f string, args ...any) {
		r.Act.Warningf("pipeline-action: #%d: "+f, append([]any{number}, args...)...)
	}
	subject := snap.Facts.Repo + "#" + strconv.Itoa(number)
	store, st, ver, read, err := r.loadState(ctx, client, cfg, snap, number, subject, info, warn) // comments.go
	if err != nil {
		return nil, err
	}
	loaded := st
	if err := r.issuePRsWith(ctx, client, cfg, snap.Facts, st, ev.Report); err != nil { // run_multipr.go
		return nil, err
	}
	ignored := store.NewlyIgnored()
	for _, ig := range ignored { // once: the state written below remembers them
		if ig.File != "" {
			r.Act.Warningf("#%d: %s", number, ig.Why)
			continue
		}
		if ig.Commit != "" {
			r.Act.Warningf("#%d: the state file on %s was ignored: %s; the runs go on from the state comment, or from what can be verified, and the file is written anew", number, a.stateBranch, ig.Why)
			continue
		}
		r.Act.Warningf("#%d: the state in comment %d was ignored: %s; the runs go on from what can be verified, and that comment is left as it is", number, ig.ID, ig.Why)
	}
	if cfg.Pinned, err = r.pinned(ctx, client, path, snap.DefaultBranch, cfg, st); err != nil {
		return nil, err
	}
	if err := extraFactsWarn(ctx, client, cfg, snap.Facts, r.Getenv("GITHUB_WORKSPACE"), warn); err != nil { // facts_extra.go
		return nil, err
	}
	if err := issueExtraFacts(ctx, client, cfg, snap.Facts, r.Getenv("GITHUB_WORKSPACE")); err != nil { // run_issue.go
		return nil, err
	}
	// The outcomes of effects an earlier round performed but could not record (its save
	// conflicted): Step records them against their intents first.
	in := engine.Input{Key: key, Event: ev.Event, Actor: ev.Actor, Number: number, Deadline: r.limits.Deadline, Outcomes: a.outcomes,
		Report: ev.Report, AgentFailure: ev.AgentFailure, Nonces: r.nonces()}
	now := r.Now()
	change := func(next *engine.State) state.Change {
		return state.Change{Config: cfg, Old: st, State: next, Event: state.Event{Name: ev.Event, Actor: ev.Actor}}
	}
	res, err := StepWithPeople(ctx, client, cfg, st, in, snap.Facts, now, warn)
	if err != nil {
		return nil, err
	}
	r.logLines(res.Log)
	if err := reportBudget(ev.Report, store, res.State); err != nil { // budget.go
		return nil, err
	}
	var pending error
	for round := 0; len(res.Effects) > 0; round++ {
		if round == maxSettleRounds {
			pending = fmt.Errorf("effects still pending after %d rounds; the state was saved as it stands, and the next event carries on", maxSettleRounds)
			break
		}
		saved := res.State
		intent := change(res.State)
		intent.Intent = true
		ver, err = saveIntents(ctx, store, intent, number, res, ver)
		if err != nil {
			return nil, err
		}
		outcomes := make([]engine.Outcome, 0, len(res.Effects))
		for _, e := range res.Effects {
			o := r.perform(ctx, client, e) // webhooks.go
			if o.Err == "" {
				r.Act.Infof("pipeline-action: %s done", e.Key)
				applyToFacts(snap.Facts, e)
			} else {
				r.Act.Warningf("%s: %s", e.Key, o.Err)
			}
			outcomes = append(outcomes, o)
		}
		a.outcomes = append(a.outcomes, outcomes...)
		if engine.HasWriteAhead(res.Effects) {
			st = saved // the state last saved: what the next commit changes
		}
		in.Visits = res.Visits // a loop is bounded within the whole event, across rounds
		settled := res.State
		res = engine.Settle(cfg, settled, in, outcomes, snap.Facts, now)
		if read, err := readFilesIfNeeded(ctx, client, res, snap.Facts); err != nil { // facts_extra.go
			return nil, err
		} else if read {
			res = engine.Settle(cfg, settled, in, outcomes, snap.Facts, now)
		}
		r.logLines(res.Log)
	}
	if ev.follower != nil && engine.AddFollower(res.State, *ev.follower) { // run_issue.go
		res.State.Seq++
	}
	if len(res.State.Runs) == 0 && len(ignored) == 0 && len(res.State.Followers) == 0 {
		return nil, nil // no pipeline concerns this PR: nothing to show, nothing written
	}
	stopped := newlyUnsupported(loaded, res.State)
	recordComments(snap, loaded, res.State, read, ver.CommentID) // comments.go
	if _, err := store.Save(ctx, number, change(res.State), ver); err != nil {
		return nil, err
	}
	a.saved(loaded, res.State) // run_issue.go
	if len(stopped) > 0 {
		r.Unsupported = append(r.Unsupported, stopped...)
		return nil, fmt.Errorf("%s", strings.Join(stopped, "; "))
	}
	if pending != nil {
		return nil, pending
	}
	out := &subjectResult{Number: number, Summary: state.Human(store.Body())} // what the comment shows
	if last := latest(res.State.Runs); last != nil {
		out.Status, out.Stage = string(last.Status), last.Stage
	}
	return out, nil
}

// saveIntents saves the state res returned before any of its effects is performed, when
// one of them is write-ahead (a merge, a comment: the state holds its intent). Only an
// invocation whose save won may perform them; a failed save, a conflict included, is an
// error, and nothing is performed.
func saveIntents(ctx context.Context, store state.Store, c state.Change, number int, res engine.Result, ver state.Version) (state.Version, error) {
	if !engine.HasWriteAhead(res.Effects) {
		return ver, nil
	}
	v, err := store.Save(ctx, number, c, ver)
	if err != nil {
		var keys []string
		for _, e := range res.Effects {
			if e.WriteAhead {
				keys = append(keys, e.Key)
			}
		}
		return ver, fmt.Errorf("saving the intent of %s before performing it: %w; nothing was performed", strings.Join(keys, ", "), err)
	}
	return v, nil
}

// pinned loads the configs that unfinished runs started under, when the default branch
// has moved on since (snapshot on start): one GraphQL read per such config. The ID comes
// from the stored state, so it only names a config, never makes one: a config that is not
// a version of the config on the default branch (one of its last 100 changes; an object of
// a pull request's branch never is), that is gone or that no longer loads is reported, and
// its runs follow the current one (the engine then merges nothing it cannot verify); a
// failed read stops the invocation, so the next event tries again.
func (r *Runner) pinned(ctx context.Context, client *ghapi.Client, path, defaultBranch string, cfg *engine.Config, st *engine.State) (map[string]*engine.Config, error) {
	out := map[string]*engine.Config{}
	for _, run := range st.Runs {
		oid := run.ConfigOID
		if run.Status.Final() || oid == "" || oid == cfg.BlobOID {
			continue
		}
		if _, done := out[oid]; done {
			continue
		}
		out[oid] = nil
		src, err := client.ConfigByID(ctx, oid, path)
		if err != nil {
			return nil, fmt.Errorf("reading the config run %s started under: %w", run.ID, err)
		}
		var old *engine.Config
		if src == nil {
			err = fmt.Errorf("it is not one of the last 100 versions of the config on %s, or its files are gone", defaultBranch)
		} else {
			old, err = LoadConfig(src)
		}
		if err != nil {
			r.Act.Warningf("run %s started under config %s, which cannot be used now (%v); it follows the current config", run.ID, oid, err)
			continue
		}
		out[oid] = old
	}
	return out, nil
}

// configWhere names the files of the config at path, for messages.
func ConfigWhere(path string) string {
	if dir := ghapi.ConfigDir(path); dir != "" {
		return fmt.Sprintf("%s or %s/*.yaml", path, dir)
	}
	return path
}

// loadConfig loads the files of a config as validate loads a directory's: merged, with
// duplicate names an error at the second and every position naming its file. Its
// BlobOID is the config's ID, which runs pin.
func LoadConfig(c *ghapi.Config) (*engine.Config, error) {
	files := make([]engine.SourceFile, 0, len(c.Files))
	for _, f := range c.Files {
		if f.Truncated {
			return nil, fmt.Errorf("%s is too large to read", f.Path)
		}
		files = append(files, engine.SourceFile{Path: f.Path, Src: []byte(f.Text)})
	}
	cfg, err := engine.LoadFiles(files, gates.Default())
	if err != nil {
		return nil, err
	}
	cfg.BlobOID = c.ID
	return cfg, nil
}

// newlyUnsupported returns the messages of runs that stopped in this invocation at a
// construct the engine cannot execute yet.
func newlyUnsupported(before, after *engine.State) []string {
	was := map[string]bool{}
	for _, r := range before.Runs {
		if r.Status == engine.RunFailed {
			was[r.ID] = true
		}
	}
	var out []string
	for _, r := range after.Runs {
		if r.Status == engine.RunFailed && !was[r.ID] && strings.HasPrefix(r.Message, "not supported yet:") {
			out = append(out, fmt.Sprintf("run %s stopped: %s", r.ID, r.Message))
		}
	}
	return out
}

// applyToFacts records what a performed effect changed, so later stages of the same
// invocation see it.
func applyToFacts(f *engine.Facts, e engine.Effect) {
	if f.PR == nil {
		applyToIssueFacts(f, e) // run_issue.go
		return
	}
	pr := f.PR
	if e.Kind == engine.EffectLabel { // add, then remove
		applyToFacts(f, engine.Effect{Kind: engine.EffectAddLabel, Labels: e.Labels})
		applyToFacts(f, engine.Effect{Kind: engine.EffectRemoveLabel, Labels: e.Remove})
		return
	}
	switch e.Kind {
	case engine.EffectMerge:
		pr.State = engine.PRMerged
	case engine.EffectAddLabel, engine.EffectDispatch: // a label dispatch adds its label
		for _, l := range e.Labels {
			if !pr.HasLabel(l) {
				pr.Labels = append(pr.Labels, l)
			}
		}
	case engine.EffectRemoveLabel:
		kept := pr.Labels[:0]
		for _, l := range pr.Labels {
			gone := false
			for _, r := range e.Labels {
				gone = gone || engine.SameLabel(l, r)
			}
			if !gone {
				kept = append(kept, l)
			}
		}
		pr.Labels = kept
	}
}

func latest(runs []*engine.Run) *engine.Run {
	var out *engine.Run
	for _, r := range runs {
		if out == nil || !r.StartedAt.Before(out.StartedAt) {
			out = r
		}
	}
	return out
}

func (r *Runner) report(results []subjectResult) {
	if len(results) == 0 {
		return
	}
	r.setOutput("status", results[0].Status)
	r.setOutput("stage", results[0].Stage)
	if r.Getenv("GITHUB_STEP_SUMMARY") == "" {
		return
	}
	var b strings.Builder
	for _, res := range results {
		fmt.Fprintf(&b, "## #%d\n\n%s\n", res.Number, res.Summary)
	}
	if err := appendEnvFile(r.Getenv("GITHUB_STEP_SUMMARY"), b.String()+"\n"); err != nil {
		r.Act.Warningf("pipeline-action: the job summary could not be written (%v)", err)
	}
}

// setOutput sets a step output through the GITHUB_OUTPUT file. Without that file (an
// old runner, a local run) or when it cannot be written, the output goes to the job
// log instead: the work is done by then, and losing an output must not fail the job.
func (r *Runner) setOutput(name, value string) {
	path := r.Getenv("GITHUB_OUTPUT")
	if path == "" {
		r.Act.Infof("pipeline-action: output %s=%s (GITHUB_OUTPUT is not set)", name, value)
		return
	}
	delim, err := OutputDelimiter(value)
	if err == nil {
		err = appendEnvFile(path, name+"<<"+delim+"\n"+value+"\n"+delim+"\n")
	}
	if err != nil {
		r.Act.Warningf("pipeline-action: output %s=%s could not be written to GITHUB_OUTPUT (%v)", name, value, err)
	}
}

// outputDelimiter returns a heredoc delimiter that does not occur in value, random as
// the Actions toolkit's is, so no value can end its block early and set other outputs.
func OutputDelimiter(value string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	d := "ghadelimiter_" + hex.EncodeToString(b[:])
	if strings.Contains(value, d) {
		return "", errors.New("the value contains the delimiter")
	}
	return d, nil
}

// appendEnvFile appends text to one of the runner's environment files.
func appendEnvFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// annotate turns config errors into annotations on their lines.
func (r *Runner) annotate(err error) {
	var list engine.ErrorList
	if !errors.As(err, &list) {
		r.Act.Errorf("%v", err)
		return
	}
	for _, e := range list {
		r.Act.WithFieldsMap(map[string]string{
			"file": e.Pos.File, "line": strconv.Itoa(e.Pos.Line), "col": strconv.Itoa(e.Pos.Col),
		}).Errorf("%s [%s]", e.Message, e.Kind)
	}
}

func (r *Runner) logLines(lines []string) {
	for _, l := range lines {
		r.Act.Infof("pipeline-action: %s", l)
	}
}

func FormatCalls(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func Contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
