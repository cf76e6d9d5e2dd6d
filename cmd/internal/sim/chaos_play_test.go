package sim

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// chaosSnap is the world between two steps, as the state and the pull request show it: taken
// as a step begins (after the previous one's events were handled), and once more at the end.
type chaosSnap struct {
	runs           map[string]model.RunStatus // run id → status
	merged, closed bool
	head           string         // the pull request's head
	dispatches     int            // how many dispatches the fake had received
	attempts       map[string]int // the agent stages' attempts in the first run
}

// chaosRun is a story played: every step (the story's and the tail's), the snapshots, and
// the fake's world at the end.
type chaosRun struct {
	cfg *chaosConfig
	// sweepEnd: the story ends on sweeps alone, no event after the events of its tail.
	sweepEnd bool
	steps    []*chaosStep
	snaps    []chaosSnap
	fake     *ghfake.Server
	err      error // the scenario could not be played: a step refused, a request GitHub would refuse
	log      *bytes.Buffer
}

// snapWriter is the simulation's output: it keeps the log and takes a snapshot as each step
// begins.
type snapWriter struct {
	mu   sync.Mutex
	sim  *simulation
	run  *chaosRun
	log  bytes.Buffer
	skip bool // the next step printed is the empty expectation before a redelivery
}

func (w *snapWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.HasPrefix(p, []byte("── step ")) && w.sim != nil {
		if w.skip {
			w.skip = false
		} else {
			w.run.snaps = append(w.run.snaps, snapshot(w.sim))
		}
	}
	return w.log.Write(p)
}

// snapshot reads the runs of the story's pull request from the state the action wrote, and
// whether the pull request is merged or closed.
func snapshot(s *simulation) chaosSnap {
	snap := chaosSnap{runs: map[string]model.RunStatus{}, attempts: map[string]int{}, dispatches: len(s.fake.Dispatches())}
	subject := s.sc.Repo + "#" + strconv.Itoa(chaosPR)
	for _, r := range s.runs() {
		if r.Subject == subject && r.Parent == "" {
			snap.runs[r.ID] = r.Status
		}
		if r.ID == chaosRunID {
			for id, sr := range r.Stages {
				snap.attempts[id] = sr.Attempt
			}
		}
	}
	s.try(func() {
		pr := s.fake.PR(s.sc.Repo, chaosPR)
		snap.merged, snap.closed, snap.head = pr.Merged, pr.State == "closed", pr.HeadSHA
	})
	return snap
}

// writeChaosDir writes a story's scenario beside its config and the agents' workflow, so that
// `simulate DIR` plays it.
func writeChaosDir(dir string, cfg *chaosConfig, scenarioText string) error {
	src := filepath.Join("testdata", "chaos")
	for _, f := range [][2]string{{filepath.Join(src, cfg.name, "pipelines.yaml"), "pipelines.yaml"}, {filepath.Join(src, "agent.yml"), "agent.yml"}} {
		b, err := os.ReadFile(f[0])
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f[1]), b, 0o600); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte(scenarioText), 0o600)
}

// playChaos plays the story's steps one at a time, then, unless the story closes its pull
// request, a tail drawn from where the run stands: CI green and a write approval on the final
// head, then what the run waits for (an agent's report, a maintainer's word, a command to an
// escalated run, what a gate condition lacks, any event), a step at a time, until it merges
// or the tail is spent; a story that ends on the sweep then lets only time pass. Last, a late
// report of an agent's latest attempt, which must start nothing. A report is drawn as it is
// played, among the attempts that were dispatched. The caller closes the returned run's fake.
func playChaos(ctx context.Context, dir string, c chaosCase) *chaosRun {
	cfg, steps := c.cfg, c.steps
	run := &chaosRun{cfg: cfg, sweepEnd: c.sweepEnd}
	w := &snapWriter{run: run}
	run.log = &w.log
	p := &chaosPlayer{dir: dir, cfg: cfg, w: w, run: run, sent: map[*chaosStep][]delivery{}, held: map[*chaosStep][]delivery{}, together: map[*chaosStep]bool{}, as: map[*chaosStep]*chaosStep{}}
	if run.err = writeChaosDir(dir, cfg, renderStory(cfg, "chaos story", nil, "")); run.err != nil {
		return run
	}
	if p.sim, run.err = storySimulation(dir, w); run.err != nil {
		return run
	}
	// An invocation of a together that a fault stops before it reads holds the others' writes
	// until the barrier gives up: a short wait keeps such a story quick.
	p.sim.barrierTimeout = 2 * time.Second
	run.fake = p.sim.fake
	if _, run.err = p.sim.play(ctx); run.err != nil { // the files on the default branch
		return run
	}
	w.mu.Lock()
	w.sim = p.sim
	w.mu.Unlock()
	for i, st := range steps {
		if run.err = p.step(ctx, st, i); run.err != nil {
			break
		}
	}
	if run.err == nil && !storyClosed(steps) {
		p.tail(ctx)
	}
	if run.err == nil {
		p.lateReport(ctx)
	}
	run.snaps = append(run.snaps, snapshot(p.sim))
	return run
}

// chaosPlayer plays a story a step at a time in one simulation.
type chaosPlayer struct {
	dir      string
	cfg      *chaosConfig
	sim      *simulation
	w        *snapWriter
	run      *chaosRun
	sent     map[*chaosStep][]delivery // what each step played delivered, for its redeliveries
	held     map[*chaosStep][]delivery // what a `deliver: later` step played holds, until delivered
	together map[*chaosStep]bool
	as       map[*chaosStep]*chaosStep // a step of the story → the step played for it
	// outageEnd is when the last outage a fault's `until` set ends.
	outageEnd time.Time
}

// tail lets the time pass in which an invocation cut off by a fault has surely ended (its
// timeout and a minute: what it may still have been doing holds until then, by design; and
// past the end of an outage a fault's `until` set), then plays CI and an approval on the
// head, then what the run waits for. A story that ends on the sweep plays those events as
// soon as an outage is over, while what the faults left (the leases and claims of the
// invocations they cut off) may still hold, and then only lets time pass: what is left to do
// must be a deadline the sweep keeps.
func (p *chaosPlayer) tail(ctx context.Context) {
	outage := max(p.outageEnd.Sub(p.sim.clock.now())+time.Minute, 0).Round(time.Minute)
	wait := max(outage, 7*time.Minute)
	var first []*chaosStep
	switch {
	case !p.run.sweepEnd:
		first = append(first, &chaosStep{kind: "advance", body: wait.String(), tail: true})
	default:
		// Past the outage (its events would be lost), not past the invocations it cut off;
		// the sweep applies the deadlines that passed meanwhile (a timeout escalates).
		first = append(first, &chaosStep{kind: "advance", body: max(outage, time.Minute).String(), tail: true})
	}
	first = append(first,
		&chaosStep{kind: "check", body: fmt.Sprintf("{pr: %d, name: test, conclusion: success}", chaosPR), delivers: true, tail: true},
		&chaosStep{kind: "review", body: fmt.Sprintf("{pr: %d, user: carol, state: approved}", chaosPR), delivers: true, tail: true},
		&chaosStep{kind: "review", body: fmt.Sprintf("{pr: %d, user: alice, state: approved}", chaosPR), delivers: true, tail: true},
	)
	for i := 0; i < 12 && p.run.err == nil; i++ {
		var st *chaosStep
		if i < len(first) {
			st = first[i]
		} else if st = tailStep(p.sim, p.cfg); st == nil {
			break
		}
		p.run.err = p.step(ctx, st, len(p.run.steps))
	}
	if !p.run.sweepEnd {
		return
	}
	for _, d := range []time.Duration{wait, 30 * time.Minute, 3 * time.Hour} {
		if p.run.err != nil {
			return
		}
		p.run.err = p.step(ctx, &chaosStep{kind: "advance", body: d.String(), tail: true}, len(p.run.steps))
	}
}

// lateReport plays, after the story's end, the report of the latest attempt dispatched to
// each agent stage of the first run: late, of a run that has ended or moved on, it must not
// start anything.
func (p *chaosPlayer) lateReport(ctx context.Context) {
	for _, stage := range p.cfg.agents {
		for a := 5; a >= 1; a-- {
			if p.sim.dispatchedNonce(chaosRunID, stage, a) == "" {
				continue
			}
			st := &chaosStep{kind: "report", delivers: true, tail: true,
				body: fmt.Sprintf("{pr: %d, stage: %s, verdict: approve, run: %s, attempt: %d}", chaosPR, stage, chaosRunID, a)}
			if p.run.err = p.step(ctx, st, len(p.run.steps)); p.run.err != nil {
				return
			}
			break
		}
	}
}

// step draws what is left to draw of st (a report's attempt), plays it, and keeps what it
// delivered.
func (p *chaosPlayer) step(ctx context.Context, st *chaosStep, i int) error {
	played := p.resolve(st, i)
	p.as[st] = played
	p.run.steps = append(p.run.steps, played)
	s := p.sim
	var before []delivery
	for n := 0; n <= len(s.sc.Steps); n++ {
		before = append(before, s.sent[n]...)
	}
	s.sent, s.together = map[int][]delivery{0: before}, map[int]bool{}
	s.held, s.heldTaken = map[int][]delivery{}, map[int]bool{}
	text := []*chaosStep{played}
	switch played.kind {
	case "redeliver":
		// The step redelivered is step 1 of this play, an expectation that checks nothing.
		s.sent[1], s.together[1] = p.sent[played.ref], p.together[played.ref]
		text = []*chaosStep{{kind: "expect", body: "{}"}, {kind: "redeliver", body: "1"}}
	case "deliver_held":
		// Played as the first delivery of what the step held: the same events, with the run
		// ids they got when held (the scenario written out says deliver_held).
		s.sent[1] = p.held[played.ref]
		delete(p.held, played.ref)
		text = []*chaosStep{{kind: "expect", body: "{}"}, {kind: "redeliver", body: "1"}}
	}
	if err := s.loadSteps(p.dir, renderStory(p.cfg, "step", text, "")); err != nil {
		return err
	}
	p.w.mu.Lock()
	p.w.skip = played.kind == "redeliver" || played.kind == "deliver_held"
	p.w.mu.Unlock()
	if _, err := s.play(ctx); err != nil {
		return err
	}
	if played.kind == "fault" {
		p.noteOutage(played.body)
	}
	if played.kind != "redeliver" && played.kind != "deliver_held" {
		p.sent[played], p.together[played] = s.sent[1], s.together[1]
		if len(s.held[1]) > 0 {
			p.held[played] = s.held[1]
		}
	}
	return nil
}

// resolve is the step to play for st: a report drawn among the attempts dispatched so far
// (the live one mostly, else a late one), a ping when there is none; a redelivery of the
// step played for the one it names; st itself otherwise.
func (p *chaosPlayer) resolve(st *chaosStep, i int) *chaosStep {
	switch {
	case st.tail:
		return st
	case st.kind == "redeliver" && len(p.sent[p.as[st.ref]]) == 0:
		// The step sent nothing (a close of a merged pull request): there is no job to re-run.
		return &chaosStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: bob, body: \"nothing to re-run\"}", chaosPR), delivers: true}
	case st.kind == "redeliver":
		return &chaosStep{kind: "redeliver", ref: p.as[st.ref]}
	case st.kind == "deliver_held" && len(p.held[p.as[st.ref]]) == 0:
		return &chaosStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: bob, body: \"nothing held\"}", chaosPR), delivers: true}
	case st.kind == "deliver_held":
		return &chaosStep{kind: "deliver_held", ref: p.as[st.ref]}
	case st.kind == "together":
		out := *st
		out.sub = nil
		for j, s := range st.sub {
			out.sub = append(out.sub, p.resolve(s, i*10+j))
		}
		return &out
	case st.kind == "report":
		return p.report(st, i)
	case st.kind == "dismiss_review":
		return p.dismiss(st)
	}
	return st
}

// dismiss plays a dismissal of the writer's latest deciding review, or a comment when they
// have none to dismiss (GitHub would refuse it).
func (p *chaosPlayer) dismiss(st *chaosStep) *chaosStep {
	for user, rv := range latestDecisions(p.sim.fake.Standing(chaosRepo, chaosPR)) {
		if strings.Contains(st.body, "user: "+user+",") || strings.Contains(st.body, "user: "+user+"}") {
			if rv.State == "APPROVED" || rv.State == "CHANGES_REQUESTED" {
				return st
			}
		}
	}
	return &chaosStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: bob, body: \"nothing to dismiss\"%s}", chaosPR, deliverSuffix(st.body)), delivers: true}
}

// deliverSuffix is the `deliver` a step's body ends with, "" for none.
func deliverSuffix(body string) string {
	for _, d := range []string{", deliver: false", ", deliver: later"} {
		if strings.Contains(body, d) {
			return d
		}
	}
	return ""
}

// report draws the attempt a report names: the live attempt of its stage when the run stands
// there (two times in three), else an attempt dispatched before.
func (p *chaosPlayer) report(st *chaosStep, i int) *chaosStep {
	var stage string
	if _, err := fmt.Sscanf(st.body[strings.Index(st.body, "stage: ")+len("stage: "):], "%s", &stage); err != nil {
		return st
	}
	stage = strings.TrimSuffix(stage, ",")
	live, _, err := p.sim.at(chaosPR, stage)
	var attempts []int
	runID := chaosRunID
	if err == nil && (i%3 != 0) {
		runID, attempts = live.ID, []int{live.Stages[stage].Attempt}
	} else {
		for a := 1; a <= 5; a++ {
			if p.sim.dispatchedNonce(chaosRunID, stage, a) != "" {
				attempts = append(attempts, a)
			}
		}
	}
	later := deliverSuffix(st.body)
	if len(attempts) == 0 || p.sim.dispatchedNonce(runID, stage, attempts[len(attempts)-1]) == "" {
		return &chaosStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: bob, body: \"no report to give\"%s}", chaosPR, later), delivers: true, tail: st.tail}
	}
	a := attempts[i%len(attempts)]
	return &chaosStep{kind: "report", delivers: true, tail: st.tail,
		body: fmt.Sprintf("{pr: %d, stage: %s, verdict: approve, run: %s, attempt: %d%s}", chaosPR, stage, runID, a, later)}
}

// noteOutage keeps when the outage of a fault with `until` ends.
func (p *chaosPlayer) noteOutage(body string) {
	i := strings.Index(body, "until: ")
	if i < 0 {
		return
	}
	d, err := time.ParseDuration(strings.TrimRight(strings.Fields(body[i+len("until: "):])[0], ",}"))
	if end := p.sim.clock.now().Add(d); err == nil && end.After(p.outageEnd) {
		p.outageEnd = end
	}
}

// tailStep is the next step of the tail: nil once the pull request is merged.
func tailStep(s *simulation, cfg *chaosConfig) *chaosStep {
	snap := snapshot(s)
	if snap.merged || snap.closed {
		return nil
	}
	comment := func(user, body string, command bool) *chaosStep {
		return &chaosStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: %s, body: %q}", chaosPR, user, body), delivers: true, command: command, tail: true}
	}
	subject := s.sc.Repo + "#" + strconv.Itoa(chaosPR)
	for _, r := range s.runs() {
		if r.Subject != subject || r.Parent != "" || r.Status == model.RunCompleted || r.Status == model.RunCancelled {
			continue
		}
		if r.Status == model.RunEscalated || r.Status == model.RunFailed {
			return comment("alice", "/pipeline retry", true)
		}
		for _, a := range cfg.agents {
			if sr := r.Stages[a]; sr != nil && r.At(a) {
				return &chaosStep{kind: "report", delivers: true, tail: true,
					body: fmt.Sprintf("{pr: %d, stage: %s, verdict: approve, run: %s, attempt: %d}", chaosPR, a, r.ID, sr.Attempt)}
			}
		}
		if cfg.human != "" && r.At(cfg.human) {
			return comment("alice", "/pipeline approve", true)
		}
	}
	if st := gateRemedy(s, cfg); st != nil {
		return st
	}
	return comment("bob", "ping", false)
}

// gateRemedy is the step that gives the pull request what the first condition of the
// config's gates that does not hold now lacks: a writer's approval of the head, the approval
// of one who requested changes, green CI, the label; nil when every condition holds.
func gateRemedy(s *simulation, cfg *chaosConfig) *chaosStep {
	spec, err := cfg.gateSpec()
	if err != nil {
		return nil
	}
	m := s.fake.Standing(s.sc.Repo, chaosPR)
	latest := latestDecisions(m)
	event := func(kind, format string, args ...any) *chaosStep {
		return &chaosStep{kind: kind, body: fmt.Sprintf(format, args...), delivers: true, tail: true}
	}
	for _, c := range spec.conditions {
		if spec.judgeCondition(c, m) == "" {
			continue
		}
		switch c.check() {
		case "human_approved":
			for _, u := range []string{"alice", "bob"} {
				if rv := latest[u]; spec.inGroup(c, u) && (rv.State != "APPROVED" || rv.CommitID != m.HeadSHA) {
					return event("review", "{pr: %d, user: %s, state: approved}", chaosPR, u)
				}
			}
		case "no_changes_requested":
			for _, u := range slices.Sorted(maps.Keys(latest)) {
				if latest[u].State == "CHANGES_REQUESTED" {
					return event("review", "{pr: %d, user: %s, state: approved}", chaosPR, u)
				}
			}
		case "ci_status":
			return event("check", "{pr: %d, name: test, conclusion: success}", chaosPR)
		case "label_present":
			return event("label", "{pr: %d, add: [%v]}", chaosPR, c["label"])
		}
	}
	return nil
}
