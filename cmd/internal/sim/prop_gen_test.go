package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The configs of the property test: drawn from the language itself, every stage type in
// every place the language allows it, and kept as the structure the judges read (a judge
// reads the config as written, never the engine's view of it).

const (
	propPR     = 7
	propAuthor = "dev"
	propGroup  = "maintainers"
)

// propUsers are the people of every story: alice and bob maintain, dan writes but is no
// maintainer, carol reads, dev writes and is the author.
var propUsers = map[string]string{"alice": "write", "bob": "write", "carol": "read", "dan": "write", propAuthor: "write"}

// propMaintainers are the users of the group propGroup.
var propMaintainers = []string{"alice", "bob"}

// propCond is a stage's condition: a label, a changed path, or an expression over the
// labels; all labels lowercase, so that case never decides.
type propCond struct {
	label, path string
	expr        bool // the label test written as an expression
}

// propCheck is a gate condition.
type propCheck struct {
	kind  string // human_approved, no_changes_requested, ci_status, label_present, expr
	count int
	from  bool
	label string
}

// propBranch is a parallel stage's branch: an agent, or a sub-pipeline.
type propBranch struct {
	id, agent, pipeline string
}

// propStage is a stage as the config writes it.
type propStage struct {
	id, typ  string
	checks   []propCheck  // gate
	from     bool         // human: from the group
	agent    string       // agent
	reject   string       // agent: on_reject goes back here, max_iterations 2
	child    string       // pipeline
	branches []propBranch // parallel
	join     string       // parallel
	action   string       // action: merge_pr, add_label, comment
	cond     *propCond
	skipTo   string
	onFail   string // gate: on_fail goes back here, max_iterations 2, then escalate
}

// propPipe is a pipeline: a sub-pipeline has no trigger.
type propPipe struct {
	name     string
	event    string // trigger event; "" for a sub-pipeline
	label    string // trigger condition label (pull_request.labeled)
	base     string // trigger condition base_branch
	author   string // trigger condition author
	priority int
	restart  string // on a push, restart from this agent stage
	keep     string // keep_up_to_date's update_method; "" without it
	stages   []*propStage
}

// propConfig is a generated config and its text.
type propConfig struct {
	seed    uint64
	pipes   []*propPipe
	webhook bool
	layered bool // the first pipeline merges after a child (layer)
	text    string
}

func (c *propConfig) pipe(name string) *propPipe {
	for _, p := range c.pipes {
		if p.name == name {
			return p
		}
	}
	return nil
}

type propGen struct {
	r   *rand.Rand
	cfg *propConfig
	n   int // stage ids drawn
}

func (g *propGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *propGen) chance(n int) bool        { return g.r.IntN(n) == 0 }

// generateConfig draws a config from seed: zero to two sub-pipelines (the second may run
// the first), then one to three triggered pipelines, the first of which merges.
func generateConfig(seed uint64) *propConfig {
	g := &propGen{r: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d)), cfg: &propConfig{seed: seed}}
	var subs []string
	for i := 0; i < g.r.IntN(3); i++ {
		name := fmt.Sprintf("sub%d", i+1)
		p := &propPipe{name: name}
		for k := 1 + g.r.IntN(2); k > 0; k-- {
			p.stages = append(p.stages, g.stage(subs, false))
		}
		g.conditions(p)
		g.cfg.pipes = append(g.cfg.pipes, p)
		subs = append(subs, name)
	}
	for i := 0; i < 1+g.r.IntN(3); i++ {
		g.cfg.pipes = append(g.cfg.pipes, g.top(i, subs))
	}
	if len(subs) > 0 && g.chance(3) {
		g.layer(subs)
	}
	g.cfg.text = renderConfig(g.cfg)
	return g.cfg
}

// top draws a triggered pipeline: its trigger, one to four stages, and a merge for the
// first pipeline (and some of the others).
func (g *propGen) top(i int, subs []string) *propPipe {
	p := &propPipe{name: fmt.Sprintf("p%d", i+1), priority: []int{10, 50, 100}[g.r.IntN(3)]}
	switch g.r.IntN(6) {
	case 0, 1, 2:
		p.event = "pull_request.opened"
	case 3, 4:
		p.event, p.label = "pull_request.labeled", "ship"
	default:
		p.event = "pull_request.synchronize"
	}
	if g.chance(4) {
		p.base = "main"
	}
	if g.chance(6) {
		p.author = g.pick("dependabot[bot]", propAuthor)
	}
	if g.chance(4) {
		p.keep = g.pick("merge", "rebase")
	}
	for k := 1 + g.r.IntN(4); k > 0; k-- {
		s := g.stage(subs, true)
		p.stages = append(p.stages, s)
		if (s.typ == "pipeline" || s.typ == "parallel") && g.chance(2) {
			// Something to wait for after a child ended: the time in which its gates may
			// stop holding before the merge.
			w := g.stage(nil, true)
			for w.typ != "agent" && w.typ != "delay" && w.typ != "human" {
				w = g.stage(nil, true)
			}
			p.stages = append(p.stages, w)
		}
	}
	if i == 0 || g.chance(2) {
		if !slices.ContainsFunc(p.stages, func(s *propStage) bool { return s.typ == "human" || s.typ == "agent" || s.typ == "gate" }) {
			// A pipeline that merges waits for someone first (else it merges as it opens).
			g.n++
			p.stages = append(p.stages, &propStage{id: fmt.Sprintf("s%d", g.n), typ: "human", from: true})
		}
		p.stages = append(p.stages, &propStage{id: "merge", typ: "action", action: "merge_pr"})
	}
	g.conditions(p)
	for _, s := range p.stages {
		if s.typ == "agent" && g.chance(2) {
			p.restart = s.id
			break
		}
	}
	return p
}

// layer makes the first pipeline one whose merge rests on a child's gate: a stage that runs
// sub-pipelines (one with a gate on CI and an approval), then a maintainer's approval, then
// the merge — the shape in which a child's gate may stop holding while the parent waits.
func (g *propGen) layer(subs []string) {
	g.cfg.layered = true
	sub := g.cfg.pipe(subs[g.r.IntN(len(subs))])
	g.n++
	gate := &propStage{id: fmt.Sprintf("s%d", g.n), typ: "gate", checks: []propCheck{{kind: "ci_status"}, {kind: "human_approved", count: 1}}}
	sub.stages = append([]*propStage{gate}, sub.stages...)
	g.n++
	run := &propStage{id: fmt.Sprintf("s%d", g.n), typ: "pipeline", child: sub.name}
	if g.chance(2) {
		run.typ, run.child, run.join = "parallel", "", "all"
		run.branches = []propBranch{{id: run.id + "-b1", pipeline: sub.name}, {id: run.id + "-b2", agent: "reviewer"}}
	}
	g.n++
	p := g.cfg.pipes[len(subs)]
	p.restart = ""
	p.stages = []*propStage{run, {id: fmt.Sprintf("s%d", g.n), typ: "human", from: true}, {id: "merge", typ: "action", action: "merge_pr"}}
	g.cfg.text = renderConfig(g.cfg)
}

// conditions gives some stages a condition with skip_to a later stage, and some gates and
// agents a loop back to an earlier stage that waits.
func (g *propGen) conditions(p *propPipe) {
	for i, s := range p.stages {
		if s.action != "merge_pr" && s.typ != "gate" && s.typ != "delay" && g.chance(3) {
			s.cond = &propCond{}
			if g.chance(3) {
				s.cond.path = "security/**"
			} else {
				s.cond.label, s.cond.expr = "security", g.chance(2)
			}
			if i+1 < len(p.stages) && g.chance(2) {
				s.skipTo = p.stages[i+1+g.r.IntN(len(p.stages)-i-1)].id
			}
		}
		if (s.typ == "gate" || s.typ == "agent") && g.chance(3) {
			back := p.stages[g.r.IntN(i+1)]
			if back.typ == "gate" || back.typ == "agent" || back.typ == "human" {
				if s.typ == "gate" {
					s.onFail = back.id
				} else {
					s.reject = back.id
				}
			}
		}
	}
}

// stage draws one stage; a sub-pipeline's stages never merge, and only the stages of a
// triggered pipeline run sub-pipelines (which keeps nesting within the limit).
func (g *propGen) stage(subs []string, top bool) *propStage {
	g.n++
	s := &propStage{id: fmt.Sprintf("s%d", g.n)}
	kinds := []string{"gate", "gate", "gate", "human", "human", "agent", "agent", "delay", "action", "webhook"}
	if len(subs) > 0 {
		kinds = append(kinds, "pipeline", "pipeline", "pipeline", "parallel", "parallel")
	} else {
		kinds = append(kinds, "parallel")
	}
	s.typ = g.pick(kinds...)
	if !top && g.chance(3) {
		s.typ = "gate" // most sub-pipelines hold a gate
	}
	switch s.typ {
	case "gate":
		s.checks = g.checks()
	case "human":
		s.from = g.chance(2)
	case "agent":
		s.agent = g.pick("reviewer", "reviewer", "checker")
	case "action":
		s.action = g.pick("add_label", "comment")
	case "webhook":
		g.cfg.webhook = true
	case "pipeline":
		s.child = subs[g.r.IntN(len(subs))]
	case "parallel":
		s.join = g.pick("all", "all", "any")
		for b := 0; b < 2; b++ {
			br := propBranch{id: fmt.Sprintf("%s-b%d", s.id, b+1)}
			if len(subs) > 0 && (b == 0 || g.chance(2)) {
				br.pipeline = subs[g.r.IntN(len(subs))]
			} else {
				br.agent = g.pick("reviewer", "checker")
			}
			s.branches = append(s.branches, br)
		}
	}
	return s
}

// checks draws a gate's conditions: one to three distinct checks.
func (g *propGen) checks() []propCheck {
	var out []propCheck
	seen := map[string]bool{}
	for n := 1 + g.r.IntN(3); len(out) < n; {
		c := propCheck{kind: g.pick("human_approved", "human_approved", "no_changes_requested", "ci_status", "ci_status", "label_present", "expr")}
		if seen[c.kind] {
			continue
		}
		seen[c.kind] = true
		switch c.kind {
		case "human_approved":
			c.count, c.from = 1+g.r.IntN(2), g.chance(3)
		case "label_present", "expr":
			c.label = g.pick("ready", "ship")
		}
		out = append(out, c)
	}
	return out
}

// renderConfig writes the config as a user would.
func renderConfig(c *propConfig) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# A generated config (seed %d).\nversion: 1\n", c.seed)
	if c.webhook {
		b.WriteString("settings:\n  webhooks: {allow: [hooks.example.com]}\n")
	}
	b.WriteString("agents:\n  reviewer: {dispatch: workflow, workflow: agent.yml}\n  checker: {dispatch: repository_dispatch, event_type: checker}\n")
	fmt.Fprintf(&b, "groups:\n  %s: {users: [%s]}\npipelines:\n", propGroup, strings.Join(propMaintainers, ", "))
	for _, p := range c.pipes {
		renderPipe(&b, p)
	}
	return b.String()
}

func renderPipe(b *strings.Builder, p *propPipe) {
	fmt.Fprintf(b, "  %s:\n", p.name)
	if p.event != "" {
		fmt.Fprintf(b, "    priority: %d\n    trigger:\n      event: %s\n", p.priority, p.event)
		var conds []string
		if p.label != "" {
			conds = append(conds, "label: "+p.label)
		}
		if p.base != "" {
			conds = append(conds, "base_branch: "+p.base)
		}
		if p.author != "" {
			conds = append(conds, fmt.Sprintf("author: %q", p.author))
		}
		if len(conds) > 0 {
			fmt.Fprintf(b, "      conditions: {%s}\n", strings.Join(conds, ", "))
		}
		if p.keep != "" {
			fmt.Fprintf(b, "    keep_up_to_date: {update_method: %s}\n", p.keep)
		}
		b.WriteString("    on_events:\n      pull_request.closed: {action: cancel}\n")
		if p.restart != "" {
			fmt.Fprintf(b, "      pull_request.synchronize: {action: invalidate_and_restart, invalidate: [%s], restart_from: %s}\n", p.restart, p.restart)
		}
	}
	b.WriteString("    stages:\n")
	for _, s := range p.stages {
		renderStage(b, s)
	}
}

func renderStage(b *strings.Builder, s *propStage) {
	fmt.Fprintf(b, "      - id: %s\n        type: %s\n", s.id, s.typ)
	w := func(format string, args ...any) { fmt.Fprintf(b, "        "+format+"\n", args...) }
	switch s.typ {
	case "gate":
		w("conditions:")
		for _, c := range s.checks {
			renderCheck(b, c)
		}
		if s.onFail != "" {
			w("on_fail: {goto: %s, max_iterations: 2, then: escalate}", s.onFail)
		}
	case "human":
		w("wait_for: approval")
		if s.from {
			w("from: %s", propGroup)
		}
	case "agent":
		w("agent: %s\n        action: review", s.agent)
		if s.reject != "" {
			w("on_reject: {goto: %s, max_iterations: 2, then: fail}", s.reject)
		}
	case "delay":
		w("duration: 10m")
	case "action":
		switch s.action {
		case "merge_pr":
			w("action: merge_pr\n        config: {method: squash}")
		case "add_label":
			w("action: add_label\n        config: {label: reviewed}")
		default:
			w("action: comment\n        config: {body: \"stage {{ run.id }} passed\"}")
		}
	case "webhook":
		w("request: {url: \"https://hooks.example.com/notify\", body: {pr: \"{{ context.pr_number }}\"}}")
	case "pipeline":
		w("pipeline: %s", s.child)
	case "parallel":
		w("join: %s\n        branches:", s.join)
		for _, br := range s.branches {
			if br.pipeline != "" {
				w("  - {id: %s, type: pipeline, pipeline: %s}", br.id, br.pipeline)
			} else {
				w("  - {id: %s, agent: %s, action: review}", br.id, br.agent)
			}
		}
	}
	if s.cond != nil {
		switch {
		case s.cond.path != "":
			w("condition: {paths_match: %q}", s.cond.path)
		case s.cond.expr:
			w("condition: \"'%s' in github.pr.labels\"", s.cond.label)
		default:
			w("condition: {labels_include: %s}", s.cond.label)
		}
		if s.skipTo != "" {
			w("skip_to: %s", s.skipTo)
		}
	}
}

func renderCheck(b *strings.Builder, c propCheck) {
	switch c.kind {
	case "human_approved":
		from := ""
		if c.from {
			from = ", from: " + propGroup
		}
		fmt.Fprintf(b, "          - {check: human_approved, count: %d%s}\n", c.count, from)
	case "ci_status":
		b.WriteString("          - {check: ci_status, expect: success}\n")
	case "label_present":
		fmt.Fprintf(b, "          - {check: label_present, label: %s}\n", c.label)
	case "expr":
		fmt.Fprintf(b, "          - {check: expr, expr: \"'%s' in github.pr.labels\"}\n", c.label)
	default:
		fmt.Fprintf(b, "          - {check: %s}\n", c.kind)
	}
}
