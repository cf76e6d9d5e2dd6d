package lang

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Params gives a gate the parameters of one condition: every key of the condition's
// mapping except `check` and `optional`. Getters record type errors with positions,
// and the loader reports every key no getter asked for as unknown.
type Params struct {
	Check string
	Pos   Pos // position of the condition
	file  string
	keys  map[string]*yaml.Node // value nodes
	kpos  map[string]Pos        // key positions
	used  map[string]bool
	asked map[string]bool // every key a getter asked for, present or not: the gate's parameters
	errs  []*Error
	// compiler compiles Expr and Template (nil: each afresh)
	compiler *Compiler
	// subs are the mappings Sub gave, by key: their errors and unknown keys are p's.
	subs map[string]*Params
}

// NewParams builds Params over key/value nodes; the loader calls it.
func NewParams(file, check string, pos Pos, keys map[string]*yaml.Node, kpos map[string]Pos) *Params {
	return &Params{Check: check, Pos: pos, file: file, keys: keys, kpos: kpos, used: map[string]bool{}}
}

func (p *Params) pos(n *yaml.Node) Pos { return Pos{File: p.file, Line: n.Line, Col: n.Column} }

func (p *Params) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{Pos: p.pos(n), Message: fmt.Sprintf(format, args...), Kind: "gate"})
}

// Has reports whether the condition sets key.
func (p *Params) Has(key string) bool { _, ok := p.get(key); return ok }

// Errorf records an error about key's value (or the condition, if key is absent).
func (p *Params) Errorf(key, format string, args ...any) {
	if n, ok := p.get(key); ok {
		p.used[key] = true
		p.errorf(n, format, args...)
		return
	}
	p.errs = append(p.errs, &Error{Pos: p.Pos, Message: fmt.Sprintf(format, args...), Kind: "gate"})
}

// String returns key as a string, or def when absent.
func (p *Params) String(key, def string) string {
	n, ok := p.get(key)
	if !ok {
		return def
	}
	p.used[key] = true
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%q of check %q must be a string", key, p.Check)
		return def
	}
	return n.Value
}

// Enum returns key as one of allowed, or def when absent.
func (p *Params) Enum(key, def string, allowed ...string) string {
	if !p.Has(key) {
		return def
	}
	v := p.String(key, def)
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	p.errorf(p.keys[key], "%q of check %q must be one of %s, not %q", key, p.Check, QuoteList(allowed), v)
	return def
}

// Int returns key as an integer >= min, or def when absent.
func (p *Params) Int(key string, def, min int) int {
	n, ok := p.get(key)
	if !ok {
		return def
	}
	p.used[key] = true
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
		p.errorf(n, "%q of check %q must be an integer", key, p.Check)
		return def
	}
	if v < min {
		p.errorf(n, "%q of check %q must be at least %d, not %d", key, p.Check, min, v)
		return def
	}
	return v
}

// Strings returns key as a list of strings (a single string is a list of one).
func (p *Params) Strings(key string) []string {
	n, ok := p.get(key)
	if !ok {
		return nil
	}
	p.used[key] = true
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return []string{n.Value}
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "%q of check %q must be a list of strings", key, p.Check)
		return nil
	}
	var out []string
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.Tag == "!!null" {
			p.errorf(c, "items of %q of check %q must be strings", key, p.Check)
			continue
		}
		out = append(out, c.Value)
	}
	return out
}

// Sub returns key's mapping as Params of its own, nil when it is absent or not a mapping
// (which it records). What its getters record, and the keys none asks for, are p's, named
// "key.sub".
func (p *Params) Sub(key string) *Params {
	n, ok := p.get(key)
	if !ok {
		return nil
	}
	p.used[key] = true
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%q of check %q must be a mapping", key, p.Check)
		return nil
	}
	keys, kpos := map[string]*yaml.Node{}, map[string]Pos{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys[n.Content[i].Value], kpos[n.Content[i].Value] = n.Content[i+1], p.pos(n.Content[i])
	}
	c := &Params{Check: p.Check, Pos: p.pos(n), file: p.file, keys: keys, kpos: kpos, used: map[string]bool{}, compiler: p.compiler}
	if p.subs == nil {
		p.subs = map[string]*Params{}
	}
	p.subs[key] = c
	return c
}

// get looks key up, remembering that the gate knows it.
func (p *Params) get(key string) (*yaml.Node, bool) {
	if p.asked == nil {
		p.asked = map[string]bool{}
	}
	p.asked[key] = true
	n, ok := p.keys[key]
	return n, ok
}

// Known returns the parameters the gate asked for, sorted: what a misspelt key was
// probably meant to be.
func (p *Params) Known() []string {
	out := make([]string, 0, len(p.asked))
	for k := range p.asked {
		out = append(out, k)
	}
	for key, c := range p.subs {
		for _, k := range c.Known() {
			out = append(out, key+"."+k)
		}
	}
	sort.Strings(out)
	return out
}

// Unused returns the keys no getter asked for, sorted, with their positions.
func (p *Params) Unused() []string {
	var out []string
	for k := range p.keys {
		if !p.used[k] {
			out = append(out, k)
		}
	}
	for key, c := range p.subs {
		for _, k := range c.Unused() {
			out = append(out, key+"."+k)
		}
	}
	sort.Strings(out)
	return out
}

// KeyPos returns the position of key in the condition ("key.sub" for a key of a Sub).
func (p *Params) KeyPos(key string) Pos {
	if k, rest, ok := strings.Cut(key, "."); ok && p.subs[k] != nil {
		return p.subs[k].KeyPos(rest)
	}
	return p.kpos[key]
}

// Errors returns what the getters recorded.
func (p *Params) Errors() []*Error {
	out := append([]*Error(nil), p.errs...)
	for _, k := range sortedKeys(p.subs) {
		out = append(out, p.subs[k].Errors()...)
	}
	return out
}

func sortedKeys(m map[string]*Params) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// MaxListed is how many names a message lists: "a", "b", … and 7 more.
const MaxListed = 50

// quoteList lists xs quoted and comma-separated, the first MaxListed of them.
func QuoteList(xs []string) string {
	var b strings.Builder
	for i, x := range xs {
		if i == MaxListed {
			fmt.Fprintf(&b, " and %d more", len(xs)-MaxListed)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(x))
	}
	return b.String()
}
