package load

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/lang/load/internal/validate"
)

// Error kinds the loader reports.
const (
	kindSyntax = "syntax"
	kindKey    = validate.KindKey
	kindType   = "type"
	kindValue  = validate.KindValue
	kindRef    = validate.KindRef
	kindID     = "id"
	kindGate   = "gate"
)

// reader reads the nodes of the YAML file at hand as typed values (strings, lists,
// mappings of known keys, durations, expressions) and collects every mistake it finds,
// at its position in that file. It knows nothing of what the values mean.
type reader struct {
	exprs *lang.Compiler // every expression and template of the config
	errs  lang.ErrorList

	// the file being read
	file    string
	maxLine int     // its last line, to keep positions inside it
	doc     *source // its text, for the positions of block scalars
}

// loader walks the YAML documents of a config and builds it.
type loader struct {
	reader
	knownGates
	// customExpanded counts the conditions the uses of custom gates stand for (at most
	// maxCustomConditions).
	customExpanded int
	cfg            *lang.Config // being built
	nodes          *nodeBudget

	first    string         // the first file, where errors without a file go
	maxLines map[string]int // the last line of every file

	// names defined so far, for duplicates across files
	pipelineNames, agentNames, groupNames map[string]lang.Pos
	// topErrs counts the errors found before the pipelines' bodies were read: parse
	// errors and mistakes in settings, agents, groups and pipeline names.
	topErrs int
}

func (l *reader) pos(n *yaml.Node) lang.Pos {
	line, col := n.Line, n.Column
	if line < 1 {
		line, col = 1, 1
	}
	if line > l.maxLine {
		line = l.maxLine
	}
	if col < 1 {
		col = 1
	}
	return lang.Pos{File: l.file, Line: line, Col: col}
}

func (l *reader) errorf(n *yaml.Node, kind, format string, args ...any) {
	if l.full() {
		return
	}
	l.errs = append(l.errs, &lang.Error{Pos: l.pos(n), Message: fmt.Sprintf(format, args...), Kind: kind})
}

// full says whether the loader has found more errors than are shown (see lang.MaxErrors):
// it stops looking then, so that a hostile file costs no more than a broken one.
func (l *reader) full() bool { return len(l.errs) > lang.MaxErrors }

// entry is one key and its value in a mapping.
type entry struct {
	key, val *yaml.Node
}

// section says which keys a mapping may hold.
type section struct {
	where string // "stage \"ready\"", for messages: unknown key "x" in <where>
	known []string
}

// fields checks that n is a mapping of the keys sec allows and returns them by key.
// Duplicate and unknown keys are reported; the first of duplicates wins.
func (l *reader) fields(n *yaml.Node, name string, sec section) map[string]entry {
	entries := l.entries(n, name, sec.where)
	out := make(map[string]entry, len(entries))
	for _, e := range entries {
		if slices.Contains(sec.known, e.key.Value) {
			out[e.key.Value] = e
		} else {
			l.unknownKey(e.key, sec)
		}
	}
	return out
}

func (l *reader) unknownKey(k *yaml.Node, sec section) {
	if l.full() {
		return
	}
	if s := lang.Suggest(k.Value, sec.known); s != "" {
		l.errorf(k, kindKey, "unknown key %q in %s; did you mean %q?", k.Value, sec.where, s)
		return
	}
	l.errorf(k, kindKey, "unknown key %q in %s; expected one of %s", k.Value, sec.where, lang.QuoteList(sec.known))
}

// entries returns the key/value pairs of mapping n in file order, without duplicates.
// name is what n is called in a type error.
func (l *reader) entries(n *yaml.Node, name, where string) []entry {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		l.errorf(n, kindType, "%q must be a mapping, not %s", name, describe(n))
		return nil
	}
	out := make([]entry, 0, len(n.Content)/2)
	var seen map[string]*yaml.Node // past a few keys; below, out is searched
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			l.errorf(k, kindType, "keys in %s must be strings, not %s", where, describe(k))
			continue
		}
		if prev := earlier(out, &seen, k); prev != nil {
			l.errorf(k, kindKey, "key %q is duplicated in %s; previously defined at %s",
				k.Value, where, l.pos(prev))
			continue
		}
		out = append(out, entry{key: k, val: v})
	}
	return out
}

// earlier returns the key of out named as k, or nil, and records k. A mapping of a
// few keys is searched in order; seen indexes a longer one.
func earlier(out []entry, seen *map[string]*yaml.Node, k *yaml.Node) *yaml.Node {
	const searched = 16
	if len(out) < searched {
		for _, e := range out {
			if e.key.Value == k.Value {
				return e.key
			}
		}
		return nil
	}
	if *seen == nil {
		*seen = make(map[string]*yaml.Node, 2*searched)
		for _, e := range out {
			(*seen)[e.key.Value] = e.key
		}
	}
	if prev, ok := (*seen)[k.Value]; ok {
		return prev
	}
	(*seen)[k.Value] = k
	return nil
}

// items returns the elements of sequence n.
func (l *reader) items(n *yaml.Node, name string) ([]*yaml.Node, bool) {
	n = deref(n)
	if n.Kind != yaml.SequenceNode {
		l.errorf(n, kindType, "%q must be a list, not %s", name, describe(n))
		return nil, false
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		out[i] = deref(c)
	}
	return out, true
}

// str returns the value of e as a string; any non-null scalar is one.
func (l *reader) str(e entry) (string, bool) {
	if e.val.Kind != yaml.ScalarNode || e.val.Tag == "!!null" {
		l.errorf(e.val, kindType, "%q must be a string, not %s", e.key.Value, describe(e.val))
		return "", false
	}
	return e.val.Value, true
}

// boolean returns the value of e as a boolean.
func (l *reader) boolean(e entry) (bool, bool) {
	if e.val.Kind != yaml.ScalarNode || e.val.Tag != "!!bool" {
		l.errorf(e.val, kindType, "%q must be a boolean (true or false), not %s", e.key.Value, describe(e.val))
		return false, false
	}
	b, err := strconv.ParseBool(strings.ToLower(e.val.Value))
	if err != nil {
		l.errorf(e.val, kindType, "%q must be a boolean (true or false), not %s", e.key.Value, describe(e.val))
		return false, false
	}
	return b, true
}

// strs returns the value of e as a list of strings; a single string is a list of one.
func (l *reader) strs(e entry) ([]string, bool) {
	v := e.val
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		return []string{v.Value}, true
	}
	if v.Kind != yaml.SequenceNode {
		l.errorf(v, kindType, "%q must be a string or a list of strings, not %s", e.key.Value, describe(v))
		return nil, false
	}
	out := []string{}
	ok := true
	for _, c := range v.Content {
		c = deref(c)
		if c.Kind != yaml.ScalarNode || c.Tag == "!!null" {
			l.errorf(c, kindType, "items of %q must be strings, not %s", e.key.Value, describe(c))
			ok = false
			continue
		}
		out = append(out, c.Value)
	}
	return out, ok
}

// deref follows aliases to the node they name.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// describe names a node's value for a type error: "a mapping", "a list", "null", or the quoted scalar.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		v := n.Value
		if len(v) > 40 {
			v = v[:40] + "..."
		}
		return strconv.Quote(v)
	}
	return "nothing"
}

var (
	yamlAnchor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`) })
)

// syntaxError turns an error of the YAML parser into an Error at the position of the
// mistake, saying what to change (see yamlSyntax). An unknown anchor, which the parser
// reports without a line, is found in src.
func (l *reader) syntaxError(err error, src []byte) {
	msg := err.Error()
	if m := yamlAnchor().FindStringSubmatch(msg); m != nil {
		at := &yaml.Node{Line: 1, Column: 1}
		if i := bytes.Index(src, []byte("*"+m[1])); i >= 0 {
			at.Line = bytes.Count(src[:i], []byte("\n")) + 1
			at.Column = i - bytes.LastIndexByte(src[:i], '\n')
		}
		l.errorf(at, kindSyntax, "invalid YAML: unknown anchor %q; define it with &%s before this alias", m[1], m[1])
		return
	}
	line, col, msg := newYAMLSyntax(src, err).locate()
	l.errorf(&yaml.Node{Line: line, Column: col}, kindSyntax, "invalid YAML: %s", msg)
}

// lookupKey returns the first entry of mapping n with key k, without reporting anything.
func lookupKey(n *yaml.Node, k string) (entry, bool) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return entry{}, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if key := deref(n.Content[i]); key.Kind == yaml.ScalarNode && key.Value == k {
			return entry{key: key, val: deref(n.Content[i+1])}, true
		}
	}
	return entry{}, false
}
