package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The stories of the property test: what people and CI do to one pull request, with lost
// and repeated events, drawn from a seed; a step that depends on the runs (a report, an
// edit of a comment) is settled as it is played (propPlayer.resolve).

// propKinds are the kinds of steps a story mixes, with their weights.
var propKinds = []struct {
	kind   string
	weight int
	gen    func(g *propStoryGen) *propStep
}{
	{"review", 12, (*propStoryGen).review},
	{"check", 10, (*propStoryGen).check},
	{"push", 4, (*propStoryGen).push},
	{"push_red", 5, (*propStoryGen).pushRed},
	{"approve", 7, (*propStoryGen).approve},
	{"command", 3, (*propStoryGen).command},
	{"dispatch", 2, (*propStoryGen).dispatch},
	{"label", 6, (*propStoryGen).label},
	{"access", 3, (*propStoryGen).access},
	{"edit_pr", 2, (*propStoryGen).retarget},
	{"edit_comment", 3, (*propStoryGen).editComment},
	{"report", 10, (*propStoryGen).report},
	{"advance", 4, (*propStoryGen).advance},
	{"redeliver", 3, (*propStoryGen).redeliver},
	{"close_pr", 1, (*propStoryGen).closePR},
}

type propStoryGen struct {
	r      *rand.Rand
	cfg    *propConfig
	steps  []*propStep
	closed bool
}

// generatePropStory draws a story of 6 to 20 steps for cfg from seed.
func generatePropStory(cfg *propConfig, seed uint64) []*propStep {
	g := &propStoryGen{r: rand.New(rand.NewPCG(seed^0xa0761d6478bd642f, seed)), cfg: cfg}
	files := "[src/app.go]"
	if g.r.IntN(4) == 0 {
		files = "[src/app.go, security/auth.go]"
	}
	g.steps = append(g.steps, &propStep{kind: "open_pr",
		body: fmt.Sprintf("{number: %d, author: %s, base: main, head: feat/x, files: %s%s}", propPR, propAuthor, files, g.deliver())})
	if (cfg.layered && g.r.IntN(3) == 0) || (!cfg.layered && g.r.IntN(3) > 0) {
		g.draw(6 + g.r.IntN(15))
		return g.steps
	}
	// A hostile author's story, one in three: everything green and approved, a push whose
	// CI fails, then what the runs still wait for — a merge then rests on what held before
	// the push.
	g.draw(len(g.steps) + g.r.IntN(4))
	for _, body := range []string{"check: {pr: %d, name: test, conclusion: success}", "review: {pr: %d, user: dan, state: approved}",
		"label: {pr: %d, add: [ready, ship]}", "report: approve", "report: approve"} {
		kind, rest, _ := strings.Cut(body, ": ")
		if strings.Contains(rest, "%d") {
			rest = fmt.Sprintf(rest, propPR)
		}
		g.steps = append(g.steps, &propStep{kind: kind, body: rest})
	}
	g.steps = append(g.steps, g.pushRed())
	for _, st := range []*propStep{g.report(), g.report(), g.advance(), g.approve()} {
		g.steps = append(g.steps, st)
	}
	g.draw(len(g.steps) + g.r.IntN(4))
	return g.steps
}

// draw adds steps drawn by their weights until the story has n.
func (g *propStoryGen) draw(n int) {
	total := 0
	for _, k := range propKinds {
		total += k.weight
	}
	for len(g.steps) < n {
		x := g.r.IntN(total)
		for _, k := range propKinds {
			if x -= k.weight; x < 0 {
				if st := k.gen(g); st != nil {
					g.steps = append(g.steps, st)
				}
				break
			}
		}
	}
}

func (g *propStoryGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// deliver loses one event in eight.
func (g *propStoryGen) deliver() string {
	if g.r.IntN(8) == 0 {
		return ", deliver: false"
	}
	return ""
}

func (g *propStoryGen) review() *propStep {
	user := g.pick("alice", "alice", "bob", "dan", "carol", propAuthor)
	state := g.pick("approved", "approved", "approved", "changes_requested", "commented")
	if user == propAuthor {
		state = "commented"
	}
	return &propStep{kind: "review", body: fmt.Sprintf("{pr: %d, user: %s, state: %s%s}", propPR, user, state, g.deliver())}
}

func (g *propStoryGen) check() *propStep {
	return &propStep{kind: "check", body: fmt.Sprintf("{pr: %d, name: test, conclusion: %s%s}", propPR, g.pick("success", "success", "failure"), g.deliver())}
}

func (g *propStoryGen) push() *propStep {
	files := ""
	if g.r.IntN(4) == 0 {
		files = ", files: {security/auth.go: auth.txt}"
	}
	return &propStep{kind: "push", body: fmt.Sprintf("{pr: %d%s%s}", propPR, files, g.deliver())}
}

// pushRed is a push whose CI fails: what a gate that passed before must see at the merge.
func (g *propStoryGen) pushRed() *propStep {
	g.steps = append(g.steps, g.push())
	return &propStep{kind: "check", body: fmt.Sprintf("{pr: %d, name: test, conclusion: failure%s}", propPR, g.deliver())}
}

func (g *propStoryGen) approve() *propStep {
	user := g.pick("alice", "bob", "dan", "carol", propAuthor)
	return &propStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: %s, body: \"/pipeline approve\"%s}", propPR, user, g.deliver())}
}

// command is /pipeline retry, or /pipeline start of a triggered pipeline.
func (g *propStoryGen) command() *propStep {
	user := g.pick("alice", "bob", propAuthor)
	body := "/pipeline retry"
	if g.r.IntN(2) == 0 {
		body = "/pipeline start " + g.triggered()
	}
	return &propStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: %s, body: %q%s}", propPR, user, body, g.deliver())}
}

// triggered is the name of one of the config's triggered pipelines.
func (g *propStoryGen) triggered() string {
	var names []string
	for _, p := range g.cfg.pipes {
		if p.event != "" {
			names = append(names, p.name)
		}
	}
	return g.pick(names...)
}

// dispatch starts a pipeline by hand (workflow_dispatch).
func (g *propStoryGen) dispatch() *propStep {
	return &propStep{kind: "dispatch", body: fmt.Sprintf("{pipeline: %s, number: %d, user: %s}", g.triggered(), propPR, g.pick("alice", propAuthor))}
}

func (g *propStoryGen) label() *propStep {
	op := g.pick("add", "add", "remove")
	return &propStep{kind: "label", body: fmt.Sprintf("{pr: %d, %s: [%s]%s}", propPR, op, g.pick("ready", "ship", "security"), g.deliver())}
}

// access takes write from a maintainer or a writer, or gives it back.
func (g *propStoryGen) access() *propStep {
	return &propStep{kind: "access", body: fmt.Sprintf("{user: %s, permission: %s}", g.pick("alice", "bob", "dan"), g.pick("read", "write"))}
}

// retarget changes the pull request's base.
func (g *propStoryGen) retarget() *propStep {
	return &propStep{kind: "edit_pr", body: fmt.Sprintf("{pr: %d, base: %s%s}", propPR, g.pick("release", "main"), g.deliver())}
}

// editComment withdraws a /pipeline approve: its author edits it, or the pull request's
// author does (settled when played: the comment must exist).
func (g *propStoryGen) editComment() *propStep {
	author := g.pick("alice", "bob")
	user := g.pick(author, propAuthor)
	return &propStep{kind: "edit_comment", body: fmt.Sprintf("{pr: %d, author: %s, user: %s, find: \"/pipeline approve\", replace: \"not yet\"%s}", propPR, author, user, g.deliver())}
}

// report is an agent's verdict, settled when played: to the agent stage a run stands at.
func (g *propStoryGen) report() *propStep {
	return &propStep{kind: "report", body: g.pick("approve", "approve", "approve", "reject")}
}

func (g *propStoryGen) advance() *propStep {
	return &propStep{kind: "advance", body: g.pick("1m", "11m", "25h")}
}

func (g *propStoryGen) redeliver() *propStep {
	var can []*propStep
	for _, st := range g.steps {
		if st.kind != "access" && st.kind != "report" && st.kind != "advance" && st.kind != "redeliver" && !strings.Contains(st.body, "deliver: false") {
			can = append(can, st)
		}
	}
	if len(can) == 0 {
		return nil
	}
	return &propStep{kind: "redeliver", ref: can[g.r.IntN(len(can))]}
}

func (g *propStoryGen) closePR() *propStep {
	if g.closed || len(g.steps) < 5 {
		return nil
	}
	g.closed = true
	return &propStep{kind: "close_pr", body: fmt.Sprintf("{pr: %d%s}", propPR, g.deliver())}
}

// resolve is the step to play for st: a report to the agent stage a run stands at, an edit
// of a comment that exists, a redelivery of what the step played for st's reference
// delivered; a comment that moves nothing where there is none.
func (p *propPlayer) resolve(st *propStep) *propStep {
	ping := &propStep{kind: "comment", body: fmt.Sprintf("{pr: %d, user: carol, body: \"ping\"}", propPR), tail: st.tail}
	switch st.kind {
	case "report":
		if strings.HasPrefix(st.body, "{") {
			return st // drawn already (the tail's, or a shrunk story's)
		}
		for _, r := range p.sim.runs() {
			if r.Subject == fmt.Sprintf("%s#%d", propRepo, propPR) && !r.Status.Final() {
				if rep := p.reportFor(r, st.body); rep != nil {
					rep.tail = st.tail
					return rep
				}
			}
		}
		return ping
	case "edit_comment":
		author := st.body[strings.Index(st.body, "author: ")+len("author: "):]
		author = author[:strings.Index(author, ",")]
		found := false
		p.sim.try(func() {
			cs := p.sim.fake.Comments(propRepo, propPR)
			for i := len(cs) - 1; i >= 0; i-- {
				if cs[i].Author == author {
					found = strings.Contains(cs[i].Body, "/pipeline approve")
					break
				}
			}
		})
		if !found {
			return ping
		}
	case "redeliver":
		if len(p.sent[st.ref]) == 0 {
			return ping
		}
	}
	return st
}
