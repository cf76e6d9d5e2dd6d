package graph

import (
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// Mermaid returns a Mermaid `flowchart LR` of p: one node per stage, one edge per
// transition, and the terminal targets (complete, fail, cancel, escalate) as rounded
// end nodes. Each stage type has its shape: gates are rhombi, actions rectangles,
// agents rounded boxes, humans hexagons, delays parallelograms, webhooks flags and
// sub-pipelines subroutines (`[[…]]`) naming the pipeline they run; a parallel stage
// is a subgraph holding its branches, its title noting the join. The nodes of the new
// stage types say what they run on a second line.
//
// Edges are labelled by the kind of transition: pass and fail (gates), success and
// failure (actions, webhooks), complete, skip (a condition that does not hold),
// timeout, error, the verdicts (followup, revise, reject, …), conflict, ci failure,
// any reject and ready. A loop bounded by max_iterations draws its `then` edge
// labelled "<kind> after N". A transition left empty that means "the next stage" is
// drawn to that stage (to `complete` after the last one); one that means "keep
// waiting" or "retry on the next event" is not drawn.
//
// When run is non-nil its stages are styled: the current stage of an unfinished run
// `current`, passed and succeeded stages (and branches) `done`, failed ones
// `failed`, and the end node a finished run reached `done` or `failed`.
//
// Node ids are derived from stage ids so that any stage id is safe in Mermaid;
// labels are quoted. The output is deterministic: stages in file order, then end
// nodes in order of first reference. A nil pipeline gives "".
func Mermaid(p *lang.Pipeline, run *model.Run) string {
	if p == nil {
		return ""
	}
	g := newGraph(p)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for _, s := range p.Stages {
		g.node(&b, s, "    ")
	}
	var edges []string
	for i, s := range p.Stages {
		edges = append(edges, g.stageEdges(i, s)...)
	}
	for _, t := range g.ends {
		fmt.Fprintf(&b, "    %s([\"%s\"])\n", g.ids[endKey+t], mermaidLabel(t))
	}
	seen := map[string]bool{}
	for _, e := range edges {
		if e != "" && !seen[e] {
			seen[e] = true
			b.WriteString(e)
		}
	}
	if run != nil {
		g.style(&b, run)
	}
	return b.String()
}

// node writes the declaration of stage s (a subgraph for a parallel stage with
// branches), indented by indent.
func (g *graph) node(b *strings.Builder, s *lang.Stage, indent string) {
	id, ok := g.branches[s]
	if !ok {
		id = g.ids[s.ID]
	}
	label := mermaidLabel(s.ID)
	if d := stageDetail(s); d != "" {
		label += "<br/>" + mermaidLabel(d)
	}
	if s.Type == lang.StageParallel && len(s.Branches) > 0 {
		fmt.Fprintf(b, "%ssubgraph %s [\"%s\"]\n", indent, id, mermaidLabel(s.ID+" ("+JoinNote(s)+")"))
		for _, br := range s.Branches {
			g.node(b, br, indent+"    ")
		}
		fmt.Fprintf(b, "%send\n", indent)
		return
	}
	open, closing := "[", "]"
	switch s.Type {
	case lang.StageGate:
		open, closing = "{", "}"
	case lang.StageAgent:
		open, closing = "(", ")"
	case lang.StageHuman:
		open, closing = "{{", "}}"
	case lang.StageDelay:
		open, closing = "[/", "/]"
	case lang.StageWebhook:
		open, closing = ">", "]"
	case lang.StagePipeline:
		open, closing = "[[", "]]"
	}
	fmt.Fprintf(b, "%s%s%s\"%s\"%s\n", indent, id, open, label, closing)
}

// endKey prefixes terminal targets in graph.ids so they never clash with stage ids.
const endKey = "\x00"

type graph struct {
	p        *lang.Pipeline
	ids      map[string]string      // stage id (or endKey+target) -> node id
	branches map[*lang.Stage]string // branch of a parallel stage -> node id
	used     map[string]bool        // node ids taken
	ends     []string               // terminal targets, in order of first reference
}

func newGraph(p *lang.Pipeline) *graph {
	g := &graph{p: p, ids: map[string]string{}, branches: map[*lang.Stage]string{}, used: map[string]bool{}}
	for _, s := range p.Stages {
		if _, ok := g.ids[s.ID]; !ok {
			g.ids[s.ID] = g.unique("s_" + mermaidID(s.ID))
		}
	}
	for _, s := range p.Stages {
		for _, b := range s.Branches {
			if _, ok := g.branches[b]; !ok {
				g.branches[b] = g.unique(g.ids[s.ID] + "__" + mermaidID(b.ID))
			}
		}
	}
	return g
}

// unique returns id, or id with a numeric suffix if it is taken.
func (g *graph) unique(id string) string {
	out := id
	for n := 2; g.used[out]; n++ {
		out = fmt.Sprintf("%s_%d", id, n)
	}
	g.used[out] = true
	return out
}

// next resolves an empty on_pass / on_success / on_complete to the stage after index i.
func (g *graph) next(i int, target string) string {
	if target != "" {
		return target
	}
	if i+1 < len(g.p.Stages) {
		return g.p.Stages[i+1].ID
	}
	return lang.TargetComplete
}

// stageEdges returns the edges of the stage at index i, in a fixed order: its
// main outcome, then the other transitions, then those of its branches.
func (g *graph) stageEdges(i int, s *lang.Stage) []string {
	from := g.ids[s.ID]
	var out []string
	switch s.Type {
	case lang.StageGate:
		out = append(out, g.edge(from, "pass", g.next(i, s.OnPass)), g.edge(from, "fail", s.OnFail))
	case lang.StageAction, lang.StageWebhook:
		out = append(out, g.edge(from, "success", g.next(i, s.OnSuccess)), g.edge(from, "failure", s.OnFailure))
	case lang.StageAgent, lang.StageHuman, lang.StageParallel, lang.StageDelay, lang.StagePipeline:
		out = append(out, g.edge(from, "complete", g.next(i, s.OnComplete)))
	}
	skip := s.SkipTo
	if s.Condition != nil {
		skip = g.next(i, s.SkipTo)
	}
	out = append(out, g.edge(from, "skip", skip))
	out = append(out, g.ruleEdges(from, s)...)
	for _, b := range s.Branches {
		bid := g.branches[b]
		out = append(out, g.edge(bid, "complete", b.OnComplete), g.edge(bid, "skip", b.SkipTo))
		out = append(out, g.ruleEdges(bid, b)...)
	}
	return out
}

// ruleEdges returns the edges of the rich transitions of s, drawn from node from.
func (g *graph) ruleEdges(from string, s *lang.Stage) []string {
	var out []string
	rule := func(label string, r *lang.Rule) {
		if r == nil {
			return
		}
		out = append(out, g.edge(from, label, r.Goto))
		if r.Then == "extend" {
			return // on_timeout: wait longer; no transition
		}
		then := label
		if r.Goto != "" && r.MaxIterations > 0 {
			then = fmt.Sprintf("%s after %d", label, r.MaxIterations)
		}
		out = append(out, g.edge(from, then, r.Then))
	}
	if r := s.OnFailRule; r != nil && r.Action == notifyAndWait {
		// It notifies and keeps the gate waiting: an edge back to the gate shows the branch.
		out = append(out, fmt.Sprintf("    %s -->|%s: notify, wait| %s\n", from, failLabel(r), from))
	} else {
		rule(failLabel(r), r)
	}
	for _, v := range lang.SortedVerdicts(s.Verdicts) {
		rule(lang.VerdictName(v), s.Verdicts[v])
	}
	rule("any reject", s.OnAnyReject)
	rule("conflict", s.OnConflict)
	rule("ci failure", s.OnCIFailure)
	rule("timeout", s.OnTimeout)
	if s.OnError != nil {
		then := s.OnError.Then
		if then == "" {
			then = lang.TargetFail
		}
		out = append(out, g.edge(from, "error", then))
	}
	if s.Poll != nil && s.Poll.OnReady != PollSkipRemaining {
		out = append(out, g.edge(from, "ready", s.Poll.OnReady))
	}
	return out
}

// failLabel is the label of a gate's on_fail in mapping form: one that is for a single
// check names it.
func failLabel(r *lang.Rule) string {
	if r != nil && r.WhenCheckFailed != "" {
		return "fail of " + r.WhenCheckFailed
	}
	return "fail"
}

// notifyAndWait is the on_fail action that notifies and keeps the gate waiting.
const notifyAndWait = "notify_and_wait"

// pollSkipRemaining is the `on_ready` of a poll that ends the delay early: the stage
// completes, so no edge of its own is drawn.
const PollSkipRemaining = "skip_remaining_delay"

// edge returns the edge line from node from to target, or "" if target is empty.
// A target that is not a stage becomes an end node.
func (g *graph) edge(from, label, target string) string {
	if target == "" {
		return ""
	}
	to, ok := g.ids[target]
	if !ok {
		to = g.end(target)
	}
	return fmt.Sprintf("    %s -->|%s| %s\n", from, label, to)
}

// end returns the node id of terminal target t, declaring it on first use.
func (g *graph) end(t string) string {
	if id, ok := g.ids[endKey+t]; ok {
		return id
	}
	id := mermaidID(t)
	if t != lang.TargetComplete && t != lang.TargetFail {
		id = "t_" + id
	}
	g.ids[endKey+t] = g.unique(id)
	g.ends = append(g.ends, t)
	return g.ids[endKey+t]
}

// stageDetail is the second line of a node of the new stage types: what it runs or
// waits for. Gates and actions show their id alone.
func stageDetail(s *lang.Stage) string {
	switch s.Type {
	case lang.StageAgent:
		d := "agent: " + s.Agent
		if s.AgentAction != "" {
			d += " · " + s.AgentAction
		}
		return d
	case lang.StageHuman:
		d := "human: " + s.WaitFor
		if s.From != "" {
			d += " from " + s.From
		}
		if s.Count > 1 {
			d += fmt.Sprintf(" ×%d", s.Count)
		}
		return d
	case lang.StageDelay:
		d := "delay: " + ShortDuration(s.Duration)
		if s.Poll != nil {
			d += ", poll every " + ShortDuration(s.Poll.Interval)
		}
		return d
	case lang.StageWebhook:
		d := "webhook"
		if s.Request != nil {
			method := s.Request.Method
			if method == "" {
				method = "POST"
			}
			d += ": " + method
			if s.Request.URL != nil {
				if host, ok := lang.ParseWebhookHost(s.Request.URL.Src); ok && host != "" {
					d += " " + host
				}
			}
		}
		return d
	case lang.StagePipeline:
		return "pipeline: " + s.Pipeline
	case lang.StageParallel:
		return "parallel, " + JoinNote(s)
	}
	return ""
}

// JoinNote says how a parallel stage joins its branches: "join: all", "join: any",
// "join: 2 of 3".
func JoinNote(s *lang.Stage) string {
	switch {
	case s.JoinCount > 0:
		return fmt.Sprintf("join: %d of %d", s.JoinCount, len(s.Branches))
	case s.Join != "":
		return "join: " + s.Join
	}
	return "join: all"
}

// ShortDuration prints d as the config would: 30s, 5m, 1h30m, 72h.
func ShortDuration(d time.Duration) string {
	out := d.String()
	if strings.HasSuffix(out, "m0s") {
		out = strings.TrimSuffix(out, "0s")
	}
	if strings.HasSuffix(out, "h0m") {
		out = strings.TrimSuffix(out, "0m")
	}
	return out
}

// style writes the class definitions and assignments for run.
func (g *graph) style(b *strings.Builder, run *model.Run) {
	b.WriteString("    classDef current fill:#fff3cd,stroke:#d39e00,stroke-width:3px\n")
	b.WriteString("    classDef done fill:#d4edda,stroke:#28a745\n")
	b.WriteString("    classDef failed fill:#f8d7da,stroke:#dc3545\n")
	classes := map[string][]string{}
	seen := map[string]bool{}
	mark := func(id, stageID string) {
		sr := run.Stages[stageID]
		if sr == nil {
			return
		}
		switch sr.Status {
		case model.StagePassed, model.StageSucceeded:
			classes["done"] = append(classes["done"], id)
		case model.StageFailed:
			classes["failed"] = append(classes["failed"], id)
		}
	}
	for _, s := range g.p.Stages {
		id := g.ids[s.ID]
		if seen[id] {
			continue // a duplicate stage id; the loader reports it
		}
		seen[id] = true
		if !run.Status.Final() && run.Stage == s.ID {
			classes["current"] = append(classes["current"], id)
		} else {
			mark(id, s.ID)
		}
		for _, b := range s.Branches {
			mark(g.branches[b], b.ID)
		}
	}
	if id, ok := g.ids[endKey+lang.TargetComplete]; ok && run.Status == model.RunCompleted {
		classes["done"] = append(classes["done"], id)
	}
	if id, ok := g.ids[endKey+lang.TargetFail]; ok && run.Status == model.RunFailed {
		classes["failed"] = append(classes["failed"], id)
	}
	for _, c := range []string{"current", "done", "failed"} {
		if len(classes[c]) > 0 {
			fmt.Fprintf(b, "    class %s %s\n", strings.Join(classes[c], ","), c)
		}
	}
}

// mermaidID maps s to a Mermaid node id: letters, digits and '_' only.
func mermaidID(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// mermaidLabel escapes s for use inside a quoted Mermaid label: no quote to end it, no
// HTML, no backtick (a label in backticks is Markdown to Mermaid), no line break.
// Labels come from the config only (stage ids and settings), never from GitHub.
func mermaidLabel(s string) string {
	return mermaidEscaper.Replace(s)
}

var mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "`", "#96;", "\r\n", " ", "\n", " ", "\r", " ")
