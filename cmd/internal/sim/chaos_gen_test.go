package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// chaosConfig is one of the configs the chaos stories run under (testdata/chaos/<name>).
type chaosConfig struct {
	name string
	// agents are the stages (or parallel branches) whose agents report, dispatched as
	// workflows of agent.yml or as repository_dispatch events; none for a config without
	// agents.
	agents []string
	// human is the human stage waiting for a maintainer's approval, if any.
	human string
	// restart: a push makes the agents' reviews stale and starts them again, so the review
	// that let a merge through must be of the merged head.
	restart bool
	// faultOps are the operations the action calls under this config: where faults go.
	faultOps []string
}

const (
	chaosPR       = 7
	chaosRepo     = "acme/widgets"
	chaosPipeline = "ship"
	chaosAuthor   = "dev"
)

// chaosRunID is the id of the first run of the pipeline on the story's pull request.
var chaosRunID = fmt.Sprintf("%s/%d/1", chaosPipeline, chaosPR)

var chaosBaseOps = []string{"graphql", "graphql", "graphql", "issues/create-comment", "issues/update-comment", "issues/update-comment", "pulls/merge"}

var chaosConfigs = []chaosConfig{
	{name: "gate-merge", faultOps: chaosBaseOps},
	{name: "agent-gate-merge", agents: []string{"review"}, restart: true, faultOps: append([]string{"actions/create-workflow-dispatch", "actions/create-workflow-dispatch"}, chaosBaseOps...)},
	{name: "parallel-agents", agents: []string{"code", "sec"}, faultOps: append([]string{"actions/create-workflow-dispatch", "actions/create-workflow-dispatch"}, chaosBaseOps...)},
	{name: "human-timeout", human: "maintainer", faultOps: chaosBaseOps},
	{name: "dispatch-labels-merge", agents: []string{"review"}, restart: true, faultOps: append([]string{"repos/create-dispatch-event", "repos/create-dispatch-event"}, chaosBaseOps...)},
}

// chaosStep is one step of a story: a line of its scenario.
type chaosStep struct {
	kind string
	// body is what follows "kind: ": a flow mapping or a scalar; empty for together and
	// redeliver, which render sub and ref.
	body string
	// delivers: the step sends an event (a redeliver may name it).
	delivers bool
	// command: the step carries a /pipeline command from someone with write access.
	command bool
	sub     []*chaosStep // together
	ref     *chaosStep   // redeliver
	tail    bool         // played after the faults stop, to show that the story ends merged
}

// chaosStepKinds are the kinds of steps a story mixes, with their weights. A new kind of
// the scenario format (a fault that is performed and then unanswered, a delivery held for
// later, a tick of the clock) is one more entry here.
var chaosStepKinds = []struct {
	kind   string
	weight int
	gen    func(g *chaosGen) *chaosStep
}{
	{"review", 12, (*chaosGen).review},
	{"dismiss_review", 3, (*chaosGen).dismiss},
	{"check", 10, (*chaosGen).check},
	{"push", 5, (*chaosGen).push},
	{"comment", 8, (*chaosGen).comment},
	{"label", 3, (*chaosGen).label},
	{"report", 10, (*chaosGen).report},
	{"redeliver", 6, (*chaosGen).redeliver},
	{"deliver_held", 5, (*chaosGen).deliverHeld},
	{"together", 8, (*chaosGen).together},
	{"advance", 6, (*chaosGen).advance},
	{"fault", 20, (*chaosGen).fault},
	{"close_pr", 1, (*chaosGen).closePR},
}

// chaosTogetherKinds are the kinds a `together` mixes: events that may race.
var chaosTogetherKinds = []string{"review", "check", "push", "comment", "label", "report"}

// chaosGen draws the steps of one story.
type chaosGen struct {
	r      *rand.Rand
	cfg    *chaosConfig
	steps  []*chaosStep
	closed bool
	// heldTaken are the `deliver: later` steps a deliver_held step delivers already.
	heldTaken map[*chaosStep]bool
}

// generateStory draws a story under cfg from seed: the pull request opened, then a mix of
// events (lost, repeated, at once), faults, pushes, late reports and sweeps.
func generateStory(cfg *chaosConfig, seed uint64) []*chaosStep {
	g := &chaosGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), cfg: cfg}
	lost := cfg.dispatchOp() != "" && g.r.IntN(3) == 0
	if lost {
		// The opening's dispatch (of the second agent, where two start at once) is performed
		// and its answer lost; time passes: what comes after must find it, not send it again.
		skip := ""
		if len(cfg.agents) > 1 && g.r.IntN(2) == 0 {
			skip = ", skip: 1"
		}
		g.steps = append(g.steps, &chaosStep{kind: "fault", body: fmt.Sprintf("{operation: %s, %s%s}", cfg.dispatchOp(),
			g.pick("status: 502, performed: true", "timeout: true, performed: true"), skip)})
	}
	if !lost && g.r.IntN(6) == 0 {
		// The first state commit (the state branch's creation) is made and its answer lost:
		// the dead invocation's claims hold until their leases end.
		g.steps = append(g.steps, &chaosStep{kind: "fault", body: fmt.Sprintf("{operation: graphql, field: %s, %s}",
			g.pick("createRef", "createCommitOnBranch"), g.pick("errors: [INTERNAL], performed: true", "status: 502, performed: true"))})
	}
	g.steps = append(g.steps, &chaosStep{kind: "open_pr",
		body: fmt.Sprintf("{number: %d, author: %s, head: feat/x%s}", chaosPR, chaosAuthor, g.deliver()), delivers: true})
	if lost {
		g.steps = append(g.steps, &chaosStep{kind: "advance", body: g.pick("7m", "30m")})
	}
	total := 0
	for _, k := range chaosStepKinds {
		total += k.weight
	}
	n := len(g.steps) + 5 + g.r.IntN(15)
	for len(g.steps) < n {
		x := g.r.IntN(total)
		for _, k := range chaosStepKinds {
			if x -= k.weight; x < 0 {
				if st := k.gen(g); st != nil {
					g.steps = append(g.steps, st)
				}
				break
			}
		}
	}
	return g.steps
}

func (g *chaosGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// dispatchOp is the operation that dispatches the config's agents, "" for none.
func (cfg *chaosConfig) dispatchOp() string {
	for _, op := range cfg.faultOps {
		if strings.Contains(op, "dispatch") {
			return op
		}
	}
	return ""
}

// deliver is ", deliver: false" for one event in six (a lost event) and ", deliver: later"
// for one in ten (a job that runs late, after others: see deliverHeld).
func (g *chaosGen) deliver() string {
	switch g.r.IntN(30) {
	case 0, 1, 2, 3, 4:
		return ", deliver: false"
	case 5, 6, 7:
		return ", deliver: later"
	}
	return ""
}

func (g *chaosGen) event(kind, body string) *chaosStep {
	return &chaosStep{kind: kind, body: body, delivers: true}
}

// review is mostly a writer's: an approval, a request for changes (which stands until its
// author approves or it is dismissed, whatever else happens), a comment.
func (g *chaosGen) review() *chaosStep {
	user := g.pick("alice", "alice", "bob", "bob", "carol", chaosAuthor)
	state := g.pick("approved", "approved", "changes_requested", "changes_requested", "commented")
	if user == chaosAuthor { // GitHub lets an author only comment on their own pull request
		state = "commented"
	}
	return g.event("review", fmt.Sprintf("{pr: %d, user: %s, state: %s%s}", chaosPR, user, state, g.deliver()))
}

// dismiss dismisses a writer's latest deciding review, by the repository's owner (played
// as a comment when the writer has none then: the step resolves it).
func (g *chaosGen) dismiss() *chaosStep {
	return g.event("dismiss_review", fmt.Sprintf("{pr: %d, user: %s%s}", chaosPR, g.pick("alice", "bob"), g.deliver()))
}

func (g *chaosGen) check() *chaosStep {
	c := g.pick("success", "success", "success", "failure")
	return g.event("check", fmt.Sprintf("{pr: %d, name: test, conclusion: %s%s}", chaosPR, c, g.deliver()))
}

func (g *chaosGen) push() *chaosStep {
	if g.closed {
		return nil
	}
	return g.event("push", fmt.Sprintf("{pr: %d%s}", chaosPR, g.deliver()))
}

func (g *chaosGen) comment() *chaosStep {
	user := g.pick("alice", "bob", "carol")
	body := g.pick("/pipeline retry", "/pipeline unblock", "/pipeline approve", "looks fine")
	st := g.event("comment", fmt.Sprintf("{pr: %d, user: %s, body: %q%s}", chaosPR, user, body, g.deliver()))
	st.command = user != "carol" && strings.HasPrefix(body, "/pipeline")
	return st
}

func (g *chaosGen) label() *chaosStep {
	return g.event("label", fmt.Sprintf("{pr: %d, add: [%s]%s}", chaosPR, g.pick("docs", "backend"), g.deliver()))
}

// report plays an agent's report of an attempt named outright: the current one, a late one
// or one never dispatched; the action tells them apart.
func (g *chaosGen) report() *chaosStep {
	if len(g.cfg.agents) == 0 {
		return g.comment()
	}
	stage := g.cfg.agents[g.r.IntN(len(g.cfg.agents))]
	return g.event("report", fmt.Sprintf("{pr: %d, stage: %s, verdict: approve, run: %s, attempt: %d%s}",
		chaosPR, stage, chaosRunID, 1+g.r.IntN(3), g.deliver()))
}

// redeliver re-runs the job of an earlier step that delivered its events.
func (g *chaosGen) redeliver() *chaosStep {
	var can []*chaosStep
	for _, st := range g.steps {
		if st.delivers && !strings.Contains(st.body, "deliver: false") && !strings.Contains(st.body, "deliver: later") {
			can = append(can, st)
		}
	}
	if len(can) == 0 {
		return nil
	}
	return &chaosStep{kind: "redeliver", ref: can[g.r.IntN(len(can))]}
}

// deliverHeld runs the late job of an earlier step that said `deliver: later`, once.
func (g *chaosGen) deliverHeld() *chaosStep {
	var can []*chaosStep
	for _, st := range g.steps {
		if strings.Contains(st.body, "deliver: later") && !g.heldTaken[st] {
			can = append(can, st)
		}
	}
	if len(can) == 0 {
		return nil
	}
	st := can[g.r.IntN(len(can))]
	if g.heldTaken == nil {
		g.heldTaken = map[*chaosStep]bool{}
	}
	g.heldTaken[st] = true
	return &chaosStep{kind: "deliver_held", ref: st, delivers: true}
}

func (g *chaosGen) together() *chaosStep {
	st := &chaosStep{kind: "together", delivers: true}
	for n := 2 + g.r.IntN(2); len(st.sub) < n; {
		var s *chaosStep
		switch g.pick(chaosTogetherKinds...) {
		case "review":
			s = g.review()
		case "check":
			s = g.check()
		case "push":
			s = g.push()
		case "comment":
			s = g.comment()
		case "label":
			s = g.label()
		case "report":
			s = g.report()
		}
		if s != nil {
			s.body = strings.Replace(strings.Replace(s.body, ", deliver: false", "", 1), ", deliver: later", "", 1)
			st.command = st.command || s.command
			st.sub = append(st.sub, s)
		}
	}
	return st
}

func (g *chaosGen) advance() *chaosStep {
	return &chaosStep{kind: "advance", body: g.pick("1m", "30m", "3h", "25h")}
}

// fault makes the next call (or one a few calls later) to an operation fail: a server
// error, a secondary or a primary rate limit, or no answer at all; or serves it and loses
// the answer (performed); for GraphQL, an error inside a 200, aimed at the state commit or
// at any request; sometimes for a few calls in a row, for every call of an outage of some
// minutes or hours, or kept until some later step calls.
func (g *chaosGen) fault() *chaosStep {
	op := g.pick(g.cfg.faultOps...)
	dispatch := strings.Contains(op, "dispatch")
	if dispatch && g.r.IntN(2) == 0 {
		// A dispatch performed whose answer is lost, kept for the next dispatch however
		// late: the next invocations must find it, not send it again.
		return &chaosStep{kind: "fault", body: fmt.Sprintf("{operation: %s, %s, keep: true}", op,
			g.pick("status: 502, performed: true", "timeout: true, performed: true"))}
	}
	var what string
	switch g.r.IntN(8) {
	case 0:
		what = fmt.Sprintf("status: %d", []int{500, 502, 503}[g.r.IntN(3)])
	case 1:
		what = fmt.Sprintf("status: 403, message: \"You have exceeded a secondary rate limit\", retry_after: %d", 1+g.r.IntN(60))
	case 2:
		what = fmt.Sprintf("status: 403, message: \"API rate limit exceeded for installation ID 1.\", reset: %d", []int{5, 60, 3600}[g.r.IntN(3)])
	case 3:
		what = "timeout: true"
	case 4, 5:
		what = g.pick("status: 502, performed: true", "timeout: true, performed: true")
	case 6:
		if op == "graphql" {
			what = "errors: [" + g.pick("RATE_LIMITED", "SERVICE_UNAVAILABLE", "INTERNAL") + "]"
			break
		}
		what = "status: 502"
	default:
		what = "status: 502"
	}
	if op == "graphql" && g.r.IntN(2) == 0 {
		what += ", field: " + g.pick("createCommitOnBranch", "createRef", "repository")
	}
	more := ""
	if n := g.r.IntN(4); n > 0 {
		more = fmt.Sprintf(", skip: %d", n)
	}
	switch g.r.IntN(10) {
	case 0, 1:
		more += fmt.Sprintf(", count: %d", 2+g.r.IntN(2))
	case 2, 3:
		// An outage: every matching call fails until it ends, over steps and sweeps.
		more += ", until: " + g.pick("2m", "10m", "45m", "3h")
	case 4:
		// It waits for its call, however many steps later (the tail's, or a sweep's).
		more += ", keep: true"
	}
	return &chaosStep{kind: "fault", body: fmt.Sprintf("{operation: %s, %s%s}", op, what, more)}
}

func (g *chaosGen) closePR() *chaosStep {
	if g.closed || len(g.steps) < 4 {
		return nil
	}
	g.closed = true
	return g.event("close_pr", fmt.Sprintf("{pr: %d%s}", chaosPR, g.deliver()))
}

// storyClosed reports whether a story closes its pull request.
func storyClosed(steps []*chaosStep) bool {
	for _, st := range steps {
		if st.kind == "close_pr" {
			return true
		}
	}
	return false
}

// renderStory writes the scenario of a story: the header (the repository, its people, the
// agents' workflow), the steps, and the expectations that hold when the promises do.
func renderStory(cfg *chaosConfig, title string, steps []*chaosStep, expect string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(title), "\n") {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	fmt.Fprintf(&b, "repo: %s\nclock: 2026-01-05T09:00:00Z\nrequest_timeout: 300ms\n", chaosRepo)
	b.WriteString("users: {alice: write, bob: write, carol: read, dev: write}\n")
	if len(cfg.agents) > 0 {
		b.WriteString("files:\n  .github/workflows/agent.yml: agent.yml\n")
	}
	if len(steps) == 0 {
		b.WriteString("steps: []\n")
	} else {
		b.WriteString("steps:\n")
	}
	number := map[*chaosStep]int{}
	for i, st := range steps {
		number[st] = i + 1
		switch st.kind {
		case "together":
			b.WriteString("  - together:\n")
			for _, s := range st.sub {
				fmt.Fprintf(&b, "      - %s: %s\n", s.kind, s.body)
			}
		case "redeliver", "deliver_held":
			if st.ref == nil { // a step number given outright
				fmt.Fprintf(&b, "  - %s: %s\n", st.kind, st.body)
				break
			}
			fmt.Fprintf(&b, "  - %s: %d\n", st.kind, number[st.ref])
		default:
			fmt.Fprintf(&b, "  - %s: %s\n", st.kind, st.body)
		}
	}
	if expect != "" {
		b.WriteString("expect:\n" + expect)
	}
	return b.String()
}

// withoutStep is steps without the i-th, and without the redeliveries and late deliveries
// of it.
func withoutStep(steps []*chaosStep, i int) []*chaosStep {
	out := make([]*chaosStep, 0, len(steps))
	for j, st := range steps {
		if j == i || ((st.kind == "redeliver" || st.kind == "deliver_held") && st.ref == steps[i]) {
			continue
		}
		out = append(out, st)
	}
	return out
}
