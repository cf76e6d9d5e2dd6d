package load

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// The budget bounds the nodes of a config, all its files together, counting the
// nodes an alias names again at every place it is used: the loader expands aliases
// (stages, pipelines, conditions and values alike), so without a bound a file of a
// few hundred kilobytes whose pipelines alias one long list of stages builds millions
// of stages. Aliases may expand a config to maxConfigNodes nodes, or to aliasGrowth
// times the nodes written in its files when that is more: a large config is not
// refused for being large, and however it is built, the work of loading it stays
// within a small multiple of its text. maxWrittenNodes bounds the nodes written
// (about 3 MB of YAML). maxConfigText bounds the text of the scalars the same way,
// since one long string aliased in many places is compiled at every one. The largest
// reference config has about 1,000 nodes and 6 KB of text; 200 pipelines of 20
// stages have about 105,000 nodes and 850 KB; a config near the bounds loads and
// validates in about a second.
const (
	maxConfigNodes  = 100000
	aliasGrowth     = 2
	maxWrittenNodes = 250000
	maxConfigText   = 4 << 20
)

// nodeBudget counts the nodes and the text of a config's files as the loader expands
// them.
type nodeBudget struct {
	written  int                 // nodes written so far (an alias is one)
	expanded int                 // nodes so far, aliases expanded
	text     int                 // bytes of scalar text so far, aliases expanded
	endless  bool                // an alias is used inside the node it names
	sizes    map[*yaml.Node]cost // the expanded cost of every anchored node counted so far
}

// cost is what a node expands to: its nodes and the bytes of its scalars.
type cost struct{ nodes, text int }

func newNodeBudget() *nodeBudget {
	return &nodeBudget{sizes: map[*yaml.Node]cost{}}
}

// limit is how many nodes the config may expand to, given what is written so far.
func (b *nodeBudget) limit() int { return max(maxConfigNodes, aliasGrowth*b.written) }

// spent says whether the files counted so far went over the budget.
func (b *nodeBudget) spent() bool {
	return b.endless || b.written > maxWrittenNodes || b.expanded > b.limit() || b.text > maxConfigText
}

// overrun is where a file goes over the budget.
type overrun struct {
	at      *yaml.Node // the alias (or node) that goes over
	cost    cost       // what at adds
	endless bool       // at is an alias used inside the node it names
}

// count walks the document n in file order and takes its nodes from the budget. An
// alias costs the expanded size of the node it names, which was counted when its
// anchor was: every node of the file is walked once, however often aliases repeat
// it. It returns where the budget runs out, or nil.
func (b *nodeBudget) count(n *yaml.Node) *overrun {
	_, over := b.visit(n)
	return over
}

// take counts a node written once that expands to c, and says whether the budget
// holds it.
func (b *nodeBudget) take(c cost) bool {
	b.written++
	b.expanded += c.nodes
	b.text += c.text
	return !b.spent()
}

func (b *nodeBudget) visit(n *yaml.Node) (cost, *overrun) {
	if n.Kind == yaml.AliasNode {
		c := cost{nodes: 1}
		if n.Alias != nil {
			named, counted := b.sizes[n.Alias]
			if !counted {
				// an anchor is defined before its aliases, so the node it names is
				// still being counted: the alias is inside it and expands without end
				b.endless = true
				return cost{}, &overrun{at: n, endless: true}
			}
			c.nodes += named.nodes
			c.text += named.text
		}
		if !b.take(c) {
			return cost{}, &overrun{at: n, cost: c}
		}
		return c, nil
	}
	c := cost{nodes: 1, text: len(n.Value)}
	if !b.take(c) {
		return cost{}, &overrun{at: n, cost: c}
	}
	for _, child := range n.Content {
		cc, over := b.visit(child)
		if over != nil {
			return cost{}, over
		}
		c.nodes += cc.nodes
		c.text += cc.text
	}
	if n.Anchor != "" {
		b.sizes[n] = c
	}
	return c, nil
}

// message says what went over the budget and what to change.
func (o *overrun) message(b *nodeBudget) string {
	head := fmt.Sprintf("the config expands to more than %d nodes (aliases are expanded where they are used); ", maxConfigNodes)
	if lim := b.limit(); lim > maxConfigNodes {
		head = fmt.Sprintf("the config expands to more than %d nodes, %d times the %d written in it (aliases are expanded where they are used); ",
			lim, aliasGrowth, b.written)
	}
	adds := fmt.Sprintf("%d nodes", o.cost.nodes)
	switch {
	case b.text > maxConfigText:
		head = fmt.Sprintf("the config expands to more than %d MB of text (aliases are expanded where they are used); ", maxConfigText>>20)
		adds = fmt.Sprintf("%d bytes", o.cost.text)
	case b.written > maxWrittenNodes:
		return fmt.Sprintf("the config has more than %d nodes; make it smaller", maxWrittenNodes)
	}
	switch {
	case o.endless:
		return head + fmt.Sprintf("alias *%s is used inside the node it names, so it expands without end; remove it", o.at.Value)
	case o.at.Kind == yaml.AliasNode:
		return head + fmt.Sprintf("alias *%s adds %s every time it is used; alias a smaller part, or use it in fewer places", o.at.Value, adds)
	}
	return head + "make it smaller"
}
