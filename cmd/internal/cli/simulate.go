package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
	"github.com/org/pipeline-action/state"
)

// simulateMain plays a scenario against the fake GitHub through the real run path.
// Exit 0: every expectation holds; 1: one does not; 2: bad scenario or config, or a
// scenario that checks nothing (a scenario without expectations would pass whatever
// the action did).
func simulateMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("simulate", stderr)
	configPath := fs.String("config", "", "the pipelines file, or a directory holding .github/pipelines.yaml and/or .github/pipelines/*.yaml (default DIR/pipelines.yaml, or the scenario's config:)")
	scenarioPath := fs.String("scenario", "", "the scenario file (default DIR/scenario.yaml)")
	stats := fs.Bool("stats", false, "print the API calls of every step, by kind")
	verbose := fs.Bool("v", false, "print the job log of every invocation")
	quiet := fs.Bool("q", false, "do not print the state comment after each step")
	// DIR may stand before, between or after the flags.
	rest, code, ok := parseFlags(fs, simulateUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 1 {
		fmt.Fprintf(stderr, "pipeline-action simulate: one DIR at most, got %d\n\n%s", len(rest), simulateUsage)
		return 2
	}
	var dir string
	if len(rest) == 1 {
		dir = rest[0]
	}
	if *scenarioPath == "" {
		if dir == "" {
			fmt.Fprintln(stderr, "pipeline-action simulate: give DIR, or --scenario FILE")
			return 2
		}
		*scenarioPath = filepath.Join(dir, "scenario.yaml")
	}
	sc, err := loadScenario(*scenarioPath)
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action simulate: %v\n", err)
		return 2
	}
	if sc.StateKey == "" {
		sc.StateKey = defaultSimStateKey // statekey.go
	}
	if *configPath == "" {
		*configPath = sc.rel(sc.Config)
	}
	files, err := scenarioConfig(*configPath)
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action simulate: %v\n", err)
		return 2
	}
	if err := checkConfig(files); err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	sim := newSimulation(sc, files, stdout)
	defer sim.fake.Close()
	sim.verbose, sim.quiet = *verbose, *quiet
	failed, err := sim.play(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "pipeline-action simulate: %v\n", err)
		return 2
	}
	if *stats {
		sim.printStats()
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "\nFAIL: %d %s did not hold\n", failed, plural(failed, "expectation", "expectations"))
		return 1
	}
	if sim.checked == 0 {
		fmt.Fprintln(stdout, "\nNO EXPECTATIONS: this scenario checks nothing; add an expect step or a final expect with at least one key")
		return 2
	}
	fmt.Fprintln(stdout, "\nPASS: every expectation holds")
	return 0
}

// simulation is a scenario being played.
type simulation struct {
	sc        *scenario
	fake      *ghfake.Server
	out       io.Writer
	clock     *simClock
	verbose   bool
	quiet     bool
	tmp       string
	runID     int
	sent      map[int][]delivery // by step number (from 1): what that step delivered; 0: what the action's own events caused (token: app)
	stats     []stepStats
	comments  map[int]string // last printed state comment per PR, to print only changes
	checked   int            // expectations checked, passed or not
	jobErrors []string       // the ::error:: lines of the action's jobs (scenario_permissions.go)
	config    []scenarioFile // the config on the default branch now
	together  map[int]bool   // steps that delivered their events at once
	// barrierTimeout bounds how long the fake holds a write of a `together` invocation
	// waiting for the others to read.
	barrierTimeout time.Duration
	// with holds the action inputs of the agent workflows that report steps play, by the
	// payload of their workflow_dispatch event.
	with map[string]map[string]string
	// http answers webhook calls from the scenario's stubs (simulate_http.go).
	http *simHTTP
	// keys are the state key inputs the invocations are given (scenario_statekey.go).
	keys invocationKeys
	// pendingFaults tag the faults to drop after the next step that delivers events
	// (scenario_fault.go); held and heldTaken are the events of `deliver: later` steps, by
	// step, and the ones a deliver_held took (simulate_held.go).
	pendingFaults []string
	held          map[int][]delivery
	heldTaken     map[int]bool
}

// scenarioFile is a file of a scenario's config: where it is read from, and where it lies in
// the repository.
type scenarioFile struct {
	local, repo string
	src         []byte
}

// scenarioConfig reads the config a scenario names: a file, which becomes
// .github/pipelines.yaml, or a directory holding .github/pipelines.yaml and/or
// .github/pipelines/*.yaml (or else pipelines.yaml), which land at those paths, as
// validate reads a directory.
func scenarioConfig(path string) ([]scenarioFile, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return []scenarioFile{{local: path, repo: DefaultConfigPath, src: src}}, nil
	}
	read, err := readConfigDir(path)
	if err != nil {
		return nil, err
	}
	out := make([]scenarioFile, 0, len(read))
	for _, f := range read {
		rel, err := filepath.Rel(path, f.Path)
		if err != nil {
			return nil, err
		}
		repo := filepath.ToSlash(rel)
		if repo == "pipelines.yaml" {
			repo = DefaultConfigPath
		}
		out = append(out, scenarioFile{local: f.Path, repo: repo, src: f.Src})
	}
	return out, nil
}

// checkConfig loads the files as validate does, naming them by their local paths.
func checkConfig(files []scenarioFile) error {
	src := make([]engine.SourceFile, len(files))
	for i, f := range files {
		src[i] = engine.SourceFile{Path: f.local, Src: f.src}
	}
	_, err := engine.LoadFiles(src, gates.Default())
	return err
}

// configSources are the files as they lie in the repository.
func configSources(files []scenarioFile) []engine.SourceFile {
	out := make([]engine.SourceFile, len(files))
	for i, f := range files {
		out[i] = engine.SourceFile{Path: f.repo, Src: f.src}
	}
	return out
}

// simClock is the scenario's time: steps advance it, and so do the waits of the run
// path (a retry-after costs no real time).
type simClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *simClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *simClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// sleep is the run path's wait: the scenario's time moves on at once.
func (c *simClock) sleep(ctx context.Context, d time.Duration) error {
	c.advance(d)
	return ctx.Err()
}

type delivery struct {
	event ghfake.Event
	runID int
}

type stepStats struct {
	step  int
	label string
	calls map[string]int
}

func newSimulation(sc *scenario, config []scenarioFile, out io.Writer) *simulation {
	_ = ghfake.Preload() // an error shows on the first GraphQL request
	f := ghfake.New()
	s := &simulation{sc: sc, fake: f, out: out, clock: &simClock{t: sc.Clock}, sent: map[int][]delivery{}, comments: map[int]string{}, config: config,
		together: map[int]bool{}, barrierTimeout: 60 * time.Second, http: newSimHTTP(sc)}
	f.SetClock(s.clock.now)
	f.AddRepo(sc.Repo, sc.DefaultBranch)
	for _, c := range config {
		f.SetFile(sc.Repo, sc.DefaultBranch, c.repo, string(c.src))
	}
	for _, b := range sc.Branches {
		f.AddBranch(sc.Repo, b)
	}
	for _, r := range sc.Repos { // scenario_multipr.go
		f.AddRepo(r, "main")
	}
	for _, u := range sortedKeys(sc.Users) {
		f.AddUser(u, sc.Users[u])
	}
	for _, t := range sortedKeys(sc.Teams) {
		f.AddTeam(t, sc.Teams[t]...)
	}
	applyProtection(f, sc) // scenario_protection.go
	if sc.SecondaryLimits {
		f.EnforceSecondaryLimits()
	}
	return s
}

// play runs every step, then the final expectations; it returns how many failed.
func (s *simulation) play(ctx context.Context) (failed int, err error) {
	tmp, err := os.MkdirTemp("", "pipeline-action-simulate-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	s.tmp = tmp
	if err := s.writeFiles(); err != nil {
		return 0, err
	}
	for i, st := range s.sc.Steps {
		s.clock.advance(s.sc.Tick)
		k, err := s.playStep(ctx, i+1, st) // simulate_step.go
		failed += k
		if err != nil {
			return failed, err
		}
	}
	if s.sc.Expect != nil {
		fmt.Fprintln(s.out, "── expect")
		failed += s.check(s.sc.Expect)
	}
	return failed, nil
}

// apply changes the fake's world as the step says and returns the events GitHub would send.
func (s *simulation) apply(n int, st step) (events []ghfake.Event, label string, deliver bool, err error) {
	defer func() {
		if r := recover(); r != nil { // the fake panics on a PR or repository that does not exist
			err = fmt.Errorf("%s: %v", st.Kind, r)
		}
	}()
	repo, f := s.sc.Repo, s.fake
	on := func(d *bool) bool { return d == nil || *d }
	switch v := st.Value.(type) {
	case *openPR:
		repo, here, err := s.stepRepo(v.Repo) // scenario_multipr.go
		if err != nil {
			return nil, "", false, err
		}
		ev := f.OpenPR(repo, ghfake.PROptions{Number: v.Number, Author: v.Author, Base: v.Base, Head: v.Head,
			Title: v.Title, Body: v.Body, Files: v.Files, Labels: v.Labels, Draft: v.Draft, Fork: v.Fork})
		label := fmt.Sprintf("open_pr #%d by %s into %s", v.Number, v.Author, or(v.Base, s.sc.DefaultBranch))
		if v.Fork != "" {
			label += fmt.Sprintf(" from %s's fork", v.Fork)
		}
		if v.Head != "" {
			label += " (branch " + v.Head + ")"
		}
		return []ghfake.Event{ev}, label + elsewhere(repo, here), on(v.Deliver) && here, nil
	case *openIssue:
		ev := f.OpenIssue(repo, ghfake.IssueOptions{Number: v.Number, Author: v.Author, Title: v.Title, Body: v.Body, Labels: v.Labels})
		return []ghfake.Event{ev}, fmt.Sprintf("open_issue #%d by %s", v.Number, v.Author), on(v.Deliver), nil
	case *reviewStep:
		repo, here, err := s.stepRepo(v.Repo) // scenario_multipr.go
		if err != nil {
			return nil, "", false, err
		}
		ev := f.Review(repo, v.PR, v.User, or(v.State, "approved"), v.Body)
		return []ghfake.Event{ev}, fmt.Sprintf("review #%d by %s: %s", v.PR, v.User, or(v.State, "approved")) + elsewhere(repo, here), on(v.Deliver) && here, nil
	case *prStep:
		if v.Repo != "" && st.Kind != "conflict" { // scenario_multipr.go
			return nil, "", false, fmt.Errorf("%s takes no repo (open_pr, review, check and conflict do)", st.Kind)
		}
		if len(v.Files) > 0 && st.Kind != "push" {
			return nil, "", false, fmt.Errorf("%s takes no files (push does)", st.Kind)
		}
		if v.By != "" && st.Kind != "dismiss_review" {
			return nil, "", false, fmt.Errorf("%s takes no by (dismiss_review does)", st.Kind)
		}
		switch st.Kind {
		case "dismiss_review":
			label := fmt.Sprintf("dismiss_review #%d of %s", v.PR, v.User)
			if v.By != "" {
				label += " by " + v.By
			}
			return []ghfake.Event{f.DismissReviewAs(repo, v.PR, v.User, v.By)}, label, on(v.Deliver), nil
		case "push":
			if len(v.Files) == 0 {
				return []ghfake.Event{f.PushAs(repo, v.PR, nil, v.User)}, fmt.Sprintf("push to #%d", v.PR) + by(v.User), on(v.Deliver), nil
			}
			files := map[string]string{}
			var paths []string
			for p, local := range v.Files {
				src, err := os.ReadFile(s.sc.rel(local))
				if err != nil {
					return nil, "", false, fmt.Errorf("push: %w", err)
				}
				files[p] = string(src)
				paths = append(paths, p)
			}
			sort.Strings(paths)
			return []ghfake.Event{f.PushAs(repo, v.PR, files, v.User)}, fmt.Sprintf("push to #%d writing %s", v.PR, strings.Join(paths, ", ")) + by(v.User), on(v.Deliver), nil
		case "update_branch":
			if v.User == "" {
				return nil, "", false, errors.New("update_branch needs a user (who presses GitHub's \"Update branch\")")
			}
			return []ghfake.Event{f.UpdateBranch(repo, v.PR, v.User)}, fmt.Sprintf("update_branch #%d by %s", v.PR, v.User), on(v.Deliver), nil
		case "close_pr":
			return s.closePR(repo, v, on(v.Deliver)) // scenario_token.go
		case "conflict":
			repo, here, err := s.stepRepo(v.Repo) // scenario_multipr.go
			if err != nil {
				return nil, "", false, err
			}
			f.SetMergeable(repo, v.PR, "conflicting")
			return nil, fmt.Sprintf("conflict on #%d (GitHub sends no event)", v.PR) + elsewhere(repo, here), true, nil
		}
	case *editPRStep:
		if v.Base == "" {
			return nil, "", false, errors.New("edit_pr needs a base")
		}
		ev := f.ChangeBase(repo, v.PR, v.Base, v.User)
		return []ghfake.Event{ev}, fmt.Sprintf("edit_pr #%d: base changed to %s", v.PR, v.Base), on(v.Deliver), nil
	case *labelStep:
		if err := issueAlias(&v.PR, v.Issue, "label"); err != nil {
			return nil, "", false, err
		}
		for _, l := range v.Add {
			events = append(events, f.LabelAs(repo, v.PR, l, true, v.User))
		}
		for _, l := range v.Remove {
			events = append(events, f.LabelAs(repo, v.PR, l, false, v.User))
		}
		label := fmt.Sprintf("label #%d +%v -%v", v.PR, v.Add, v.Remove)
		if v.User != "" {
			label += " by " + v.User
		}
		if v.User == ghfake.BotLogin { // scenario_token.go
			return events, label + " (another workflow's GITHUB_TOKEN: GitHub starts no workflow)", false, nil
		}
		return events, label, on(v.Deliver), nil
	case *checkStep:
		repo, here, err := s.stepRepo(v.Repo) // scenario_multipr.go
		if err != nil {
			return nil, "", false, err
		}
		var ev ghfake.Event
		switch {
		case v.Workflow != "" && v.App != "":
			return nil, "", false, errors.New("check takes an app or a workflow (a job of Actions), not both")
		case v.Workflow != "":
			ev = f.CompleteJob(repo, v.PR, v.Workflow, v.Name, or(v.Conclusion, "success"))
		default:
			ev = f.CompleteCheck(repo, v.PR, v.Name, or(v.Conclusion, "success"), v.App)
		}
		return []ghfake.Event{ev}, fmt.Sprintf("check %q on #%d: %s", v.Name, v.PR, or(v.Conclusion, "success")) + elsewhere(repo, here), on(v.Deliver) && here, nil
	case *statusStep:
		ev := f.SetStatus(repo, v.PR, v.Context, v.State)
		return []ghfake.Event{ev}, fmt.Sprintf("status %q on #%d: %s", v.Context, v.PR, v.State), on(v.Deliver), nil
	case *commentStep:
		if err := issueAlias(&v.PR, v.Issue, "comment"); err != nil {
			return nil, "", false, err
		}
		if v.Count != 0 {
			return s.commentFlood(v) // scenario_flood.go
		}
		body := v.Body
		if v.Forge != nil {
			if body != "" {
				return nil, "", false, errors.New("comment takes a body or forge_state, not both")
			}
			if body, err = s.forge(v.PR, v.Forge, f.NextCommentID()); err != nil {
				return nil, "", false, fmt.Errorf("comment: %w", err)
			}
		}
		ev, _ := f.Comment(repo, v.PR, v.User, body)
		if v.User == ghfake.BotLogin {
			return []ghfake.Event{ev}, fmt.Sprintf("comment on #%d by %s (another workflow's GITHUB_TOKEN: GitHub starts no workflow)", v.PR, v.User), false, nil
		}
		return []ghfake.Event{ev}, fmt.Sprintf("comment on #%d by %s", v.PR, v.User), on(v.Deliver), nil
	case *accessStep:
		label, err := s.access(v) // scenario_people.go
		return nil, label, true, err
	case *editCommentStep:
		ev, label, err := s.editComment(v)
		if err != nil {
			return nil, "", false, err
		}
		return []ghfake.Event{ev}, label, on(v.Deliver), nil
	case *webhookStep:
		raw, err := os.ReadFile(s.sc.rel(v.File))
		if err != nil {
			return nil, "", false, err
		}
		return []ghfake.Event{{Name: v.Event, Payload: raw}}, fmt.Sprintf("webhook %s from %s", v.Event, v.File), true, nil
	case *configStep:
		files, err := scenarioConfig(s.sc.rel(v.File))
		if err != nil {
			return nil, "", false, fmt.Errorf("change_config: %w", err)
		}
		if err := checkConfig(files); err != nil {
			return nil, "", false, fmt.Errorf("change_config: %w", err)
		}
		kept := map[string]bool{}
		var written []string
		for _, c := range files {
			kept[c.repo] = true
			oid := f.SetFile(repo, s.sc.DefaultBranch, c.repo, string(c.src))
			written = append(written, fmt.Sprintf("%s (blob %.7s)", c.repo, oid))
		}
		for _, c := range s.config {
			if !kept[c.repo] {
				f.DeleteFile(repo, s.sc.DefaultBranch, c.repo)
				written = append(written, c.repo+" (deleted)")
			}
		}
		s.config = files
		return nil, fmt.Sprintf("change_config to %s on %s: %s", v.File, s.sc.DefaultBranch, strings.Join(written, ", ")), false, nil
	case *faultStep:
		label, err := s.applyFault(n, v) // scenario_fault.go
		return nil, label, false, err
	case stateBranchStep:
		name := s.stateBranch()
		if v == "protect" {
			f.RestrictBranch(repo, name)
			return nil, fmt.Sprintf("state_branch: protect %s (a ruleset restricts its creation and updates; GitHub sends no event)", name), false, nil
		}
		if !f.DeleteBranch(repo, name) {
			return nil, fmt.Sprintf("state_branch: delete %s (there was none)", name), false, nil
		}
		return nil, fmt.Sprintf("state_branch: delete %s (no event: the action does not listen to deletions)", name), false, nil
	case heldRef:
		label, err := s.applyHeld(n, v) // simulate_held.go
		return nil, label, true, err
	case int: // redeliver
		if v >= n || len(s.sent[v]) == 0 {
			return nil, "", false, fmt.Errorf("redeliver %d: step %d delivered no event before this step", v, v)
		}
		return nil, fmt.Sprintf("redeliver the event of step %d (a re-run)", v), true, nil
	case *httpStubs:
		return nil, s.applyHTTP(v), false, nil
	case *stateKeyStep:
		return s.applyStateKey(v) // scenario_statekey.go
	case *reportStep:
		return s.applyReport(v)
	case *agentFailsStep:
		return s.applyAgentFails(v)
	case *workflowRunStep:
		return s.applyWorkflowRun(v) // agents_runs.go
	case time.Duration:
		events, label := s.advanceSweep(v)
		return events, label, true, nil
	}
	return nil, "", false, fmt.Errorf("not supported yet: step %q", st.Kind)
}

// fresh makes deliveries of new events, each with the next run id.
func (s *simulation) fresh(events []ghfake.Event) []delivery {
	var out []delivery
	for _, ev := range events {
		s.runID++
		out = append(out, delivery{event: ev, runID: 1000 + s.runID})
	}
	return out
}

// stateBranch is the branch that holds the state: settings.state_branch of the config on
// the default branch now, or the default.
func (s *simulation) stateBranch() string {
	if cfg, err := engine.LoadFiles(configSources(s.config), gates.Default()); err == nil && cfg.Settings.StateBranch != "" {
		return cfg.Settings.StateBranch
	}
	return engine.DefaultStateBranch
}

// deliver feeds one event through the real run path, over HTTP, to the fake.
func (s *simulation) deliver(ctx context.Context, d delivery) error {
	return s.report(s.invoke(ctx, d, s.fake.BotToken()))
}

// invocation is what one run of the real run path did.
type invocation struct {
	log         string
	code        int
	unsupported []string
	err         error // the run could not be set up
}

// report prints an invocation's log when asked or when it failed, and turns a run that
// could not start, or that the engine cannot play, into an error.
func (s *simulation) report(res invocation) error {
	if res.err != nil {
		return res.err
	}
	s.noteJobErrors(res) // scenario_permissions.go
	if s.verbose || res.code != 0 {
		for _, l := range strings.Split(strings.TrimRight(res.log, "\n"), "\n") {
			fmt.Fprintf(s.out, "   | %s\n", l)
		}
	}
	if res.code == 2 {
		return errors.New("the run could not start; see its log above")
	}
	if len(res.unsupported) > 0 {
		s.printComments()
		return fmt.Errorf("the engine cannot play this scenario: %s", strings.Join(res.unsupported, "; "))
	}
	return nil
}

// invoke runs one delivery through the real run path, authenticated by token; it is safe
// to call from several goroutines at once.
func (s *simulation) invoke(ctx context.Context, d delivery, token string) invocation {
	return s.invokeWithin(ctx, d, token, s.sc.RequestTimeout)
}

// invokeWithin is invoke with the run's request_timeout input set to requestTimeout.
func (s *simulation) invokeWithin(ctx context.Context, d delivery, token string, requestTimeout time.Duration) invocation {
	path := filepath.Join(s.tmp, fmt.Sprintf("event-%d.json", d.runID))
	if err := os.WriteFile(path, d.event.Payload, 0o600); err != nil {
		return invocation{err: err}
	}
	env := map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   d.event.Name,
		"GITHUB_EVENT_PATH":   path,
		"GITHUB_REPOSITORY":   s.sc.Repo,
		"GITHUB_API_URL":      s.fake.URL + "/api/v3",
		"GITHUB_GRAPHQL_URL":  s.fake.URL + "/api/graphql",
		"GITHUB_RUN_ID":       strconv.Itoa(d.runID),
		"GITHUB_OUTPUT":       filepath.Join(s.tmp, fmt.Sprintf("output-%d", d.runID)),
		"GITHUB_STEP_SUMMARY": filepath.Join(s.tmp, fmt.Sprintf("summary-%d", d.runID)),
		"INPUT_TOKEN":         token,
		"INPUT_TIMEOUT":       s.sc.Timeout.String(),
		// The scenario's clock, not the machine's, bounds rate-limit waits; real time
		// bounds only a request the fake holds (a timeout fault).
		"INPUT_REQUEST_TIMEOUT": requestTimeout.String(),
	}
	if s.sc.SweepBudget != 0 {
		env["INPUT_SWEEP_BUDGET"] = strconv.Itoa(s.sc.SweepBudget)
	}
	var log bytes.Buffer
	for k, v := range s.sc.Secrets {
		env[SecretEnvPrefix+strings.ToUpper(k)] = v
	}
	r := &runner{getenv: func(k string) string { return env[k] }, out: &log, now: s.clock.now, sleep: s.clock.sleep, webhooks: s.http.env()}
	with, agent := s.with[string(d.event.Payload)]
	s.fake.Grant(token, s.sc.tokenPermissions(invocationKind(d.event.Name, agent))) // scenario_permissions.go
	for k, v := range with {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	s.keyEnv(env, with) // scenario_statekey.go
	var code int
	switch {
	case agent:
		code = r.reportCommand(ctx, nil, strings.NewReader(""), &log, &log)
	case d.event.Name == "schedule":
		code = r.sweep(ctx) // the sweep workflow (`command: sweep`)
	default:
		code = r.run(ctx)
	}
	return invocation{log: log.String(), code: code, unsupported: r.unsupported}
}

// printComments prints the state comment of every PR whose comment changed.
func (s *simulation) printComments() {
	for _, n := range s.subjects() {
		c := s.stateComment(n)
		if c == nil || s.comments[n] == c.Body || s.quiet {
			continue
		}
		s.comments[n] = c.Body
		text := state.Human(c.Body)
		fmt.Fprintf(s.out, "   state comment on #%d:\n", n)
		for _, l := range strings.Split(text, "\n") {
			fmt.Fprintf(s.out, "   │ %s\n", l)
		}
	}
}

func (s *simulation) printStats() {
	fmt.Fprintln(s.out, "\nAPI calls by step:")
	total := map[string]int{}
	for _, st := range s.stats {
		fmt.Fprintf(s.out, "  step %2d  %-60s %s\n", st.step, st.label, formatCalls(st.calls))
		for k, v := range st.calls {
			total[k] += v
		}
	}
	fmt.Fprintf(s.out, "  total    %-60s %s\n", "", formatCalls(total))
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
