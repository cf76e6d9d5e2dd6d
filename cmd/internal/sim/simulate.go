package sim

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
	"github.com/org/pipeline-action/state"
)

// Main plays a scenario against the fake GitHub through the real run path.
// Exit 0: every expectation holds; 1: one does not; 2: bad scenario or config, or a
// scenario that checks nothing (a scenario without expectations would pass whatever
// the action did).
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := run.NewFlagSet("simulate", stderr)
	configPath := fs.String("config", "", "the pipelines file, or a directory holding .github/pipelines.yaml and/or .github/pipelines/*.yaml (default DIR/pipelines.yaml, or the scenario's config:)")
	scenarioPath := fs.String("scenario", "", "the scenario file (default DIR/scenario.yaml)")
	stats := fs.Bool("stats", false, "print the API calls of every step, by kind, and how many went one after another")
	verbose := fs.Bool("v", false, "print the job log of every invocation")
	quiet := fs.Bool("q", false, "do not print the state comment after each step")
	// DIR may stand before, between or after the flags.
	rest, code, ok := run.ParseFlags(fs, Usage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 1 {
		fmt.Fprintf(stderr, "pipeline-action simulate: one DIR at most, got %d\n\n%s", len(rest), Usage)
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
		printError(stderr, err)
		return 2
	}
	if sc.StateKey == "" {
		sc.StateKey = defaultStateKey
	}
	if *configPath == "" {
		*configPath = sc.Rel(sc.Config)
	}
	files, err := scenarioConfig(*configPath)
	if err != nil {
		printError(stderr, err)
		return 2
	}
	if err := checkConfig(files); err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	sim := newSimulation(sc, files, stdout)
	defer sim.fake.Close()
	sim.verbose, sim.quiet = *verbose, *quiet
	if *stats { // requests sent together overlap, as on GitHub, so that "in a row" counts them once
		sim.fake.SetLatency(statsLatency)
	}
	failed, err := sim.play(ctx)
	if err != nil {
		printError(stderr, err)
		return 2
	}
	if *stats {
		sim.printStats()
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "\nFAIL: %d %s did not hold\n", failed, run.Plural(failed, "expectation", "expectations"))
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
	posted    map[int64]bool // the action's other comments already printed
	checked   int            // expectations checked, passed or not
	jobErrors []string       // the ::error:: lines of the action's jobs
	// jobWarnings are the ::warning:: lines of the action's jobs.
	jobWarnings []string
	config      []scenarioFile // the config on the default branch now
	together    map[int]bool   // steps that delivered their events at once
	// barrierTimeout bounds how long the fake holds a write of a `together` invocation
	// waiting for the others to read.
	barrierTimeout time.Duration
	// with holds the action inputs of the agent workflows that report steps play, by the
	// payload of their workflow_dispatch event.
	with map[string]map[string]string
	// http answers webhook calls from the scenario's stubs.
	http *simHTTP
	// keys are the state key inputs the invocations are given.
	keys invocationKeys
	// pendingFaults tag the faults to drop after the next step that delivers events;
	// held and heldTaken are the events of `deliver: later` steps, by
	// step, and the ones a deliver_held took.
	pendingFaults []string
	held          map[int][]delivery
	heldTaken     map[int]bool
	// runsOn, when set, is the repository's workflow deciding which events run the action;
	// nil runs it on every event.
	runsOn func(ghfake.Event) (why string)
	// explained is the output of the last explain step.
	explained string
	// tokenHeads are the heads branch updates made with GITHUB_TOKEN pushed, on which no
	// Actions job runs.
	tokenHeads map[string]bool
	// branchOf caches stateBranch for the config it was read from: the expectations ask
	// for it many times a step, and loading the config each time costs a tenth of a run.
	branchOf branchCache
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
		return []scenarioFile{{local: path, repo: run.DefaultConfigPath, src: src}}, nil
	}
	read, err := run.ReadConfigDir(path)
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
			repo = run.DefaultConfigPath
		}
		out = append(out, scenarioFile{local: f.Path, repo: repo, src: f.Src})
	}
	return out, nil
}

// checkConfig loads the files as validate does, naming them by their local paths.
func checkConfig(files []scenarioFile) error {
	src := make([]load.SourceFile, len(files))
	for i, f := range files {
		src[i] = load.SourceFile{Path: f.local, Src: f.src}
	}
	_, err := engine.LoadFiles(src, gates.Default())
	return err
}

// configSources are the files as they lie in the repository.
func configSources(files []scenarioFile) []load.SourceFile {
	out := make([]load.SourceFile, len(files))
	for i, f := range files {
		out[i] = load.SourceFile{Path: f.repo, Src: f.src}
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
	event   ghfake.Event
	runID   int
	subject int // the PR or issue the event is about (payloadSubject)
}

type stepStats struct {
	step  int
	label string
	calls map[string]int
	// writes counts the content-creating calls: REST writes and GraphQL mutations.
	writes int
	// inARow is the longest chain of the step's calls one after another (ghfake.InARow).
	inARow int
}

// statsLatency is how long the fake holds each request under --stats: far longer than
// starting a request beside another takes, far shorter than GitHub's round trip.
const statsLatency = 25 * time.Millisecond

// configAge is how long before the scenario's clock its config was committed.
const configAge = time.Hour

func newSimulation(sc *scenario, config []scenarioFile, out io.Writer) *simulation {
	_ = ghfake.Preload() // an error shows on the first GraphQL request
	f := ghfake.New()
	s := &simulation{sc: sc, fake: f, out: out, clock: &simClock{t: sc.Clock}, sent: map[int][]delivery{}, comments: map[int]string{}, config: config,
		together: map[int]bool{}, barrierTimeout: 60 * time.Second, http: newSimHTTP(sc)}
	// The config was on the default branch before the story began, as a repository's is: a
	// late start counts only a trigger that began to hold strictly after it.
	f.SetClock(func() time.Time { return sc.Clock.Add(-configAge) })
	f.AddRepo(sc.Repo, sc.DefaultBranch)
	for _, c := range config {
		f.SetFile(sc.Repo, sc.DefaultBranch, c.repo, string(c.src))
	}
	f.SetClock(s.clock.now)
	for _, b := range sc.Branches {
		f.AddBranch(sc.Repo, b)
	}
	for _, r := range sc.Repos {
		f.AddRepo(r, "main")
	}
	for _, u := range slices.Sorted(maps.Keys(sc.Users)) {
		f.AddUser(u, sc.Users[u])
	}
	for _, t := range slices.Sorted(maps.Keys(sc.Teams)) {
		f.AddTeam(t, sc.Teams[t]...)
	}
	applyProtection(f, sc)
	if sc.SecondaryLimits {
		f.EnforceSecondaryLimits()
	}
	if sc.PrimaryLimits {
		kind := ghfake.TokenGitHub
		if sc.Token == scenarioTokenApp {
			kind = ghfake.TokenApp
		}
		f.EnforcePrimaryLimits(kind)
		for _, resource := range slices.Sorted(maps.Keys(sc.PrimaryUsed)) {
			f.SpendPrimary(ghfake.BotLogin, resource, sc.PrimaryUsed[resource])
		}
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
		k, err := s.playStep(ctx, i+1, st)
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
// The fake panics on a pull request or repository that does not exist: that is a mistake
// in the scenario, reported as the step's error.
func (s *simulation) apply(n int, st step) (events []ghfake.Event, label string, deliver bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", st.Kind, r)
		}
	}()
	return s.applyStep(n, st)
}

// applyStep is apply without the recovery: one case per kind of step that changes the world.
func (s *simulation) applyStep(n int, st step) ([]ghfake.Event, string, bool, error) {
	switch v := st.Value.(type) {
	case *openPR:
		return s.applyOpenPR(v)
	case *openIssue:
		return s.applyOpenIssue(v)
	case *reviewStep:
		return s.applyReview(v)
	case *prStep:
		return s.applyPRStep(st, v)
	case *editPRStep:
		return s.applyEditPR(v)
	case *labelStep:
		return s.applyLabel(v)
	case *checkStep:
		return s.applyCheck(v)
	case *statusStep:
		return s.applyStatus(v)
	case *deployStep:
		return s.applyDeploy(v)
	case *commentStep:
		return s.applyComment(v)
	case *accessStep:
		label, err := s.access(v)
		return nil, label, true, err
	case *resolveStep:
		label, err := s.resolveConversations(v)
		return nil, label, true, err
	case *editCommentStep:
		return s.applyEditComment(v)
	case *webhookStep:
		return s.applyWebhook(v)
	case *configStep:
		return s.applyConfig(v)
	case *faultStep:
		label, err := s.applyFault(n, v)
		return nil, label, false, err
	case stateBranchStep:
		return s.applyStateBranch(v)
	case heldRef:
		label, err := s.applyHeld(n, v)
		return nil, label, true, err
	case int:
		return s.applyRedeliver(n, v)
	case *httpStubs:
		return nil, s.applyHTTP(v), false, nil
	case *stateKeyStep:
		return s.applyStateKey(v)
	case *reportStep:
		return s.applyReport(v)
	case *agentFailsStep:
		return s.applyAgentFails(v)
	case *workflowRunStep:
		return s.applyWorkflowRun(v)
	case *dispatchStep:
		return s.applyDispatch(v)
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
		out = append(out, delivery{event: ev, runID: 1000 + s.runID, subject: payloadSubject(ev.Payload)})
	}
	return out
}

// printComments prints the state comment of every PR whose comment changed.
func (s *simulation) printComments() {
	for _, n := range s.subjects() {
		c := s.stateComment(n)
		if c == nil || s.comments[n] == c.Body || s.quiet {
			continue
		}
		s.comments[n] = c.Body
		// A placeholder (a state comment whose binding edit has not happened) carries its own
		// hidden marker, which the reader does not see either.
		text := strings.TrimRight(withoutMarkers(state.Human(c.Body)), "\n")
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
		fmt.Fprintf(s.out, "  step %2d  %-60s %s%s\n", st.step, st.label, run.FormatCalls(st.calls), inARowText(st.inARow, len(st.calls)))
		for k, v := range st.calls {
			total[k] += v
		}
	}
	fmt.Fprintf(s.out, "  total    %-60s %s\n", "", run.FormatCalls(total))
	calls, writes := s.callTotals()
	fmt.Fprintf(s.out, "  %d %s, %d content-creating (REST writes and GraphQL mutations)\n", calls, run.Plural(calls, "request", "requests"), writes)
	chain, longest := 0, 0
	for _, st := range s.stats {
		chain += st.inARow
		longest = max(longest, st.inARow)
	}
	fmt.Fprintf(s.out, "  %d in a row over the steps (the most in one step: %d)\n", chain, longest)
}

// inARowText says how many of a step's requests went one after another, when it made any.
func inARowText(n, kinds int) string {
	if kinds == 0 {
		return ""
	}
	return fmt.Sprintf(" · %d in a row", n)
}

const Usage = `usage: pipeline-action simulate DIR [flags]
       pipeline-action simulate --config F --scenario S [flags]

Plays DIR/scenario.yaml against DIR/pipelines.yaml (or the scenario's config:) on a
fake GitHub, through the same code path as run: prints what each step did and the
state comment after it, then checks the expectations (expect steps and the final
expect).

flags:
  --config F     the config: a file, or a directory holding .github/pipelines.yaml
                 and/or .github/pipelines/*.yaml, or else pipelines.yaml
  --scenario S   the scenario file (default DIR/scenario.yaml)
  --stats        print the API calls of every step, by kind, and how many went
                 one after another (each request is answered after 25ms)
  -v             print the job log of every invocation
  -q             do not print the state comment after each step

exit codes: 0 every expectation holds, 1 one does not, 2 the scenario or config is
wrong (a mistake in either, or a scenario that expects nothing)
`
