package engine

import (
	"fmt"
	"strings"
)

// Mermaid returns a Mermaid `flowchart LR` of p: one node per stage (gates as
// rhombi, actions as rectangles), one edge per transition, and the terminal targets
// as rounded end nodes. Gate edges are labelled "pass" and "fail", action edges
// "success" and "failure". A transition left empty that means "the next stage"
// is drawn to that stage (to `complete` after the last one); one that means "keep
// waiting" or "retry on the next event" is not drawn.
//
// When run is non-nil its stages are styled: the current stage of an unfinished run
// `current`, passed and succeeded stages `done`, failed ones `failed`, and the end
// node a finished run reached `done` or `failed`.
//
// Node ids are derived from stage ids so that any stage id is safe in Mermaid;
// labels are quoted. The output is deterministic: stages in file order, then end
// nodes in order of first reference. A nil pipeline gives "".
func Mermaid(p *Pipeline, run *Run) string {
	if p == nil {
		return ""
	}
	g := newGraph(p)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for _, s := range p.Stages {
		open, closing := "[", "]"
		if s.Type == StageGate {
			open, closing = "{", "}"
		}
		fmt.Fprintf(&b, "    %s%s\"%s\"%s\n", g.ids[s.ID], open, mermaidLabel(s.ID), closing)
	}
	var edges []string
	for i, s := range p.Stages {
		from := g.ids[s.ID]
		switch s.Type {
		case StageGate:
			edges = append(edges, g.edge(from, "pass", g.next(i, s.OnPass)))
			edges = append(edges, g.edge(from, "fail", s.OnFail))
		case StageAction:
			edges = append(edges, g.edge(from, "success", g.next(i, s.OnSuccess)))
			edges = append(edges, g.edge(from, "failure", s.OnFailure))
		}
	}
	for _, t := range g.ends {
		fmt.Fprintf(&b, "    %s([\"%s\"])\n", g.ids[endKey+t], mermaidLabel(t))
	}
	for _, e := range edges {
		if e != "" {
			b.WriteString(e)
		}
	}
	if run != nil {
		g.style(&b, run)
	}
	return b.String()
}

// endKey prefixes terminal targets in graph.ids so they never clash with stage ids.
const endKey = "\x00"

type graph struct {
	p    *Pipeline
	ids  map[string]string // stage id (or endKey+target) -> node id
	used map[string]bool   // node ids taken
	ends []string          // terminal targets, in order of first reference
}

func newGraph(p *Pipeline) *graph {
	g := &graph{p: p, ids: map[string]string{}, used: map[string]bool{}}
	for _, s := range p.Stages {
		if _, ok := g.ids[s.ID]; !ok {
			g.ids[s.ID] = g.unique("s_" + mermaidID(s.ID))
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

// next resolves an empty on_pass / on_success to the stage after index i.
func (g *graph) next(i int, target string) string {
	if target != "" {
		return target
	}
	if i+1 < len(g.p.Stages) {
		return g.p.Stages[i+1].ID
	}
	return TargetComplete
}

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
	if t != TargetComplete && t != TargetFail {
		id = "t_" + id
	}
	g.ids[endKey+t] = g.unique(id)
	g.ends = append(g.ends, t)
	return g.ids[endKey+t]
}

// style writes the class definitions and assignments for run.
func (g *graph) style(b *strings.Builder, run *Run) {
	b.WriteString("    classDef current fill:#fff3cd,stroke:#d39e00,stroke-width:3px\n")
	b.WriteString("    classDef done fill:#d4edda,stroke:#28a745\n")
	b.WriteString("    classDef failed fill:#f8d7da,stroke:#dc3545\n")
	classes := map[string][]string{}
	seen := map[string]bool{}
	for _, s := range g.p.Stages {
		id := g.ids[s.ID]
		if seen[id] {
			continue // a duplicate stage id; the loader reports it
		}
		seen[id] = true
		if !run.Status.Final() && run.Stage == s.ID {
			classes["current"] = append(classes["current"], id)
			continue
		}
		sr := run.Stages[s.ID]
		if sr == nil {
			continue
		}
		switch sr.Status {
		case StagePassed, StageSucceeded:
			classes["done"] = append(classes["done"], id)
		case StageFailed:
			classes["failed"] = append(classes["failed"], id)
		}
	}
	if id, ok := g.ids[endKey+TargetComplete]; ok && run.Status == RunCompleted {
		classes["done"] = append(classes["done"], id)
	}
	if id, ok := g.ids[endKey+TargetFail]; ok && run.Status == RunFailed {
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

// mermaidLabel escapes s for use inside a quoted Mermaid label.
func mermaidLabel(s string) string {
	return mermaidEscaper.Replace(s)
}

var mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ")
