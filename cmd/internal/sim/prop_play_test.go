package sim

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// A story of the property test is played one step at a time in one simulation, so that a
// step can be drawn from where the runs stand (a report to the agent stage a run waits
// at, an edit of a comment that exists); after each step the player notes the world as
// GitHub shows it, which is what the judges read.

const propRepo = "acme/widgets"

// propStep is a line of a story's scenario.
type propStep struct {
	kind, body string
	ref        *propStep // redeliver
	tail       bool
}

func (st *propStep) line(number map[*propStep]int) string {
	if st.kind == "redeliver" && st.ref != nil {
		return fmt.Sprintf("  - redeliver: %d\n", number[st.ref])
	}
	return fmt.Sprintf("  - %s: %s\n", st.kind, st.body)
}

// propFact is the world after a step, as GitHub shows it.
type propFact struct {
	at             time.Time
	head, base     string
	merged, closed bool
	perms          map[string]string // login → permission, as the access steps left it
	files          []string          // the paths the pull request changes
	calls          []ghfake.Call
	newBot         []ghfake.CommentView // the action's comments this step posted
}

// propRun is a story played.
type propRun struct {
	cfg   *propConfig
	steps []*propStep
	facts []propFact // facts[i] is after steps[i]
	fake  *ghfake.Server
	runs  []*model.Run
	err   error
}

type propPlayer struct {
	dir   string
	cfg   *propConfig
	sim   *simulation
	run   *propRun
	sent  map[*propStep][]delivery
	perms map[string]string
	files []string
}

// propAgentWorkflow is the agents' workflow (the chaos configs' one).
var propAgentWorkflow = func() []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "chaos", "agent.yml"))
	if err != nil {
		panic(err)
	}
	return b
}()

// writePropDir writes a story's directory: the config, the agents' workflow, the file a
// push writes, and the scenario.
func writePropDir(dir string, cfg *propConfig, scenarioText string) error {
	for name, b := range map[string][]byte{"pipelines.yaml": []byte(cfg.text), "agent.yml": propAgentWorkflow,
		"auth.txt": []byte("package auth\n"), "scenario.yaml": []byte(scenarioText)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// renderProp writes a story's scenario.
func renderProp(cfg *propConfig, title string, steps []*propStep, expect string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(title), "\n") {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	fmt.Fprintf(&b, "repo: %s\nclock: 2026-01-05T09:00:00Z\ntick: 1s\nbranches: [release]\n", propRepo)
	var users []string
	for u, p := range propUsers {
		users = append(users, u+": "+p)
	}
	sort.Strings(users)
	fmt.Fprintf(&b, "users: {%s}\nfiles:\n  .github/workflows/agent.yml: agent.yml\n", strings.Join(users, ", "))
	if cfg.webhook {
		b.WriteString("http:\n  \"POST https://hooks.example.com/notify\": {status: 200}\n")
	}
	if len(steps) == 0 {
		b.WriteString("steps: []\n")
	} else {
		b.WriteString("steps:\n")
	}
	number := map[*propStep]int{}
	for i, st := range steps {
		number[st] = i + 1
		b.WriteString(st.line(number))
	}
	if expect != "" {
		b.WriteString("expect:\n" + expect)
	}
	return b.String()
}

// playProp plays a story, then, unless it closed the pull request, a tail that gives the
// runs what they wait for. It stops a step after the pull request is merged or closed.
// The caller closes the run's fake.
func playProp(ctx context.Context, dir string, cfg *propConfig, steps []*propStep) *propRun {
	run := &propRun{cfg: cfg}
	p := &propPlayer{dir: dir, cfg: cfg, run: run, sent: map[*propStep][]delivery{}, perms: map[string]string{}}
	for u, pm := range propUsers {
		p.perms[u] = pm
	}
	if run.err = writePropDir(dir, cfg, renderProp(cfg, "story", nil, "")); run.err != nil {
		return run
	}
	if p.sim, run.err = storySimulation(dir, &strings.Builder{}); run.err != nil {
		return run
	}
	run.fake = p.sim.fake
	if _, run.err = p.sim.play(ctx); run.err != nil {
		return run
	}
	done := false
	for _, st := range steps {
		if run.err = p.step(ctx, st); run.err != nil {
			break
		}
		if f := run.facts[len(run.facts)-1]; f.merged || f.closed {
			done = true
			break
		}
	}
	if run.err == nil && !done {
		p.tail(ctx)
	}
	if run.err == nil { // the sweep a day later: what is due after the end acts now
		run.err = p.step(ctx, &propStep{kind: "advance", body: "25h", tail: true})
	}
	run.runs = p.sim.runs()
	return run
}

// tail gives the runs what they wait for: time for delays, green CI and approvals on the
// head, then a report to each agent stage and a maintainer's word to each human stage, a
// step at a time.
func (p *propPlayer) tail(ctx context.Context) {
	first := []*propStep{
		{kind: "advance", body: "11m", tail: true},
		{kind: "check", body: fmt.Sprintf("{pr: %d, name: test, conclusion: success}", propPR), tail: true},
		{kind: "review", body: fmt.Sprintf("{pr: %d, user: alice, state: approved}", propPR), tail: true},
		{kind: "label", body: fmt.Sprintf("{pr: %d, add: [ready, ship]}", propPR), tail: true},
		{kind: "review", body: fmt.Sprintf("{pr: %d, user: bob, state: approved}", propPR), tail: true},
		{kind: "review", body: fmt.Sprintf("{pr: %d, user: dan, state: approved}", propPR), tail: true},
	}
	// In an order of the story's own: whatever CI said last may still stand when the runs
	// are given the rest.
	r := rand.New(rand.NewPCG(p.cfg.seed, 0x2545f4914f6cdd1d))
	r.Shuffle(len(first), func(i, j int) { first[i], first[j] = first[j], first[i] })
	for i := 0; i < 16 && p.run.err == nil; i++ {
		if f := p.run.facts; len(f) > 0 && (f[len(f)-1].merged || f[len(f)-1].closed) {
			return
		}
		var st *propStep
		if i < len(first) {
			st = first[i]
		} else if st = p.waitedFor(); st == nil {
			return
		}
		p.run.err = p.step(ctx, st)
	}
}

// waitedFor is the step a waiting run needs: a report for an agent, /pipeline approve for
// a human stage, /pipeline retry for an escalated run; nil when no run waits for a step.
func (p *propPlayer) waitedFor() *propStep {
	subject := fmt.Sprintf("%s#%d", propRepo, propPR)
	for _, r := range p.sim.runs() {
		if r.Subject != subject || r.Status.Final() {
			continue
		}
		if r.Status == model.RunEscalated {
			return &propStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: alice, body: \"/pipeline retry\"}", propPR), tail: true}
		}
		if st := p.reportFor(r, "approve"); st != nil {
			st.tail = true
			return st
		}
		if p.atHuman(r) {
			return &propStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: alice, body: \"/pipeline approve\"}", propPR), tail: true}
		}
	}
	return nil
}

// atHuman reports whether r stands at a human stage.
func (p *propPlayer) atHuman(r *model.Run) bool {
	pipe := p.cfg.pipe(r.Pipeline)
	if pipe == nil {
		return false
	}
	for _, s := range pipe.stages {
		if s.typ == "human" && r.Stage == s.id {
			return true
		}
	}
	return false
}

// reportFor is a report to the agent stage or branch r stands at, nil when it stands at none.
func (p *propPlayer) reportFor(r *model.Run, verdict string) *propStep {
	pipe := p.cfg.pipe(r.Pipeline)
	if pipe == nil {
		return nil
	}
	for _, s := range pipe.stages {
		ids := []string{}
		switch {
		case s.typ == "agent":
			ids = append(ids, s.id)
		case s.typ == "parallel":
			for _, b := range s.branches {
				if b.agent != "" {
					ids = append(ids, b.id)
				}
			}
		}
		for _, id := range ids {
			if sr := r.Stages[id]; sr != nil && r.At(id) && p.sim.dispatchedNonce(r.ID, id, sr.Attempt) != "" {
				return &propStep{kind: "report", body: fmt.Sprintf("{pr: %d, stage: %s, verdict: %s, run: %s, attempt: %d}", propPR, id, verdict, r.ID, sr.Attempt)}
			}
		}
	}
	return nil
}

// step plays one step, drawn first where it depends on the runs, and notes the world after it.
func (p *propPlayer) step(ctx context.Context, st *propStep) error {
	st = p.resolve(st)
	p.run.steps = append(p.run.steps, st)
	s := p.sim
	// The runs are read from the subjects events were delivered for: the story's pull request.
	s.sent, s.together = map[int][]delivery{0: {{subject: propPR}}}, map[int]bool{}
	s.held, s.heldTaken = map[int][]delivery{}, map[int]bool{}
	text := []*propStep{st}
	if st.kind == "redeliver" {
		// Step 1 of this play is an expectation that checks nothing; what it redelivers are
		// the events the step named delivered.
		s.sent[1] = p.sent[st.ref]
		text = []*propStep{{kind: "expect", body: "{}"}, {kind: "redeliver", body: "1"}}
	}
	if err := s.loadSteps(p.dir, renderProp(p.cfg, "step", text, "")); err != nil {
		return err
	}
	before := p.botComments()
	if _, err := s.play(ctx); err != nil {
		return fmt.Errorf("%s: %w", strings.TrimSpace(st.line(nil)), err)
	}
	if st.kind != "redeliver" {
		p.sent[st] = s.sent[1]
	}
	p.note(st, before)
	return nil
}

// botComments are the ids of the action's comments on the pull request.
func (p *propPlayer) botComments() map[int64]bool {
	out := map[int64]bool{}
	p.sim.try(func() {
		for _, c := range p.sim.fake.Comments(propRepo, propPR) {
			if c.Author == ghfake.BotLogin {
				out[c.ID] = true
			}
		}
	})
	return out
}

// note keeps the facts after st.
func (p *propPlayer) note(st *propStep, before map[int64]bool) {
	f := propFact{at: p.sim.clock.now(), perms: map[string]string{}, calls: p.sim.fake.Calls()}
	if st.kind == "access" {
		var user, perm string
		if _, err := fmt.Sscanf(strings.NewReplacer("{", "", "}", "", ",", " ").Replace(st.body), "user: %s permission: %s", &user, &perm); err == nil {
			p.perms[user] = perm
		}
	}
	if st.kind == "push" && strings.Contains(st.body, "security/auth.go") {
		p.files = append(p.files, "security/auth.go")
	}
	for u, pm := range p.perms {
		f.perms[u] = pm
	}
	f.files = append([]string{"src/app.go"}, p.files...)
	p.sim.try(func() {
		pr := p.sim.fake.PR(propRepo, propPR)
		f.head, f.base, f.merged, f.closed = pr.HeadSHA, pr.Base, pr.Merged, pr.State == "closed"
		for _, c := range p.sim.fake.Comments(propRepo, propPR) {
			if c.Author == ghfake.BotLogin && !before[c.ID] {
				f.newBot = append(f.newBot, c)
			}
		}
	})
	p.run.facts = append(p.run.facts, f)
}

// loadSteps makes the steps of scenario, a scenario file's text written out in dir, the
// steps s plays next, with no files and no expectation of its own.
func (s *simulation) loadSteps(dir, scenario string) error {
	path := filepath.Join(dir, "step.yaml")
	if err := os.WriteFile(path, []byte(scenario), 0o600); err != nil {
		return err
	}
	more, err := loadScenario(path)
	if err != nil {
		return err
	}
	s.sc.Steps, s.sc.Files, s.sc.Expect = more.Steps, nil, nil
	return nil
}

// storySimulation is the quiet simulation of the story written out in dir, signing its
// states with the default key, printing to out.
func storySimulation(dir string, out io.Writer) (*simulation, error) {
	sc, err := loadScenario(filepath.Join(dir, "scenario.yaml"))
	if err != nil {
		return nil, err
	}
	sc.StateKey = defaultStateKey
	files, err := scenarioConfig(sc.Rel(sc.Config))
	if err != nil {
		return nil, err
	}
	s := newSimulation(sc, files, out)
	s.quiet = true
	return s, nil
}
