package load

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/org/pipeline-action/engine/lang"
)

// textPos returns the position of the first character of scalar n's text: after the
// quote of a quoted scalar, on the line after the indicator of a block scalar.
func (l *reader) textPos(n *yaml.Node) lang.Pos {
	p := l.pos(n)
	switch n.Style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		p.Col++
	case yaml.LiteralStyle, yaml.FoldedStyle:
		if p.Line < l.maxLine {
			p.Line++
			p.Col = l.indentOf(p.Line) + 1
		}
	}
	return p
}

// indentOf returns the number of leading spaces of line (1-based) of the current file.
func (l *reader) indentOf(line int) int {
	if l.doc == nil {
		return 0
	}
	ln := l.doc.line(line)
	return len(ln) - len(bytes.TrimLeft(ln, " "))
}

// scalar returns n's text if n is a non-null scalar; otherwise it reports a type error
// naming key.
func (l *reader) scalar(n *yaml.Node, key string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		l.errorf(n, kindType, "%q must be a string, not %s", key, describe(n))
		return "", false
	}
	return n.Value, true
}

// template compiles the scalar e.val, which may hold `{{ … }}`, as a template.
func (l *reader) template(e entry) *lang.Template {
	return l.templateNode(e.val, e.key.Value)
}

// templateNode compiles scalar n (called key in errors) as a template.
func (l *reader) templateNode(n *yaml.Node, key string) *lang.Template {
	src, ok := l.scalar(n, key)
	if !ok {
		return nil
	}
	t, err := l.exprs.Template(src, l.textPos(n))
	if err != nil {
		l.errs = append(l.errs, err)
		return nil
	}
	return t
}

// expr compiles the scalar e.val as an expression (CompileExpr takes a condition
// written as one `{{ … }}`, as the reference writes poll conditions, too).
func (l *reader) expr(e entry) *lang.Expr {
	src, ok := l.scalar(e.val, e.key.Value)
	if !ok {
		return nil
	}
	if strings.TrimSpace(src) == "" {
		l.errorf(e.val, kindValue, "%q must not be empty", e.key.Value)
		return nil
	}
	x, err := l.exprs.Expr(src, l.textPos(e.val))
	if err != nil {
		l.errs = append(l.errs, err)
		return nil
	}
	return x
}

// duration reads e.val as a positive duration: 30s, 5m, 2h, 72h, 7d.
func (l *reader) duration(e entry) (time.Duration, bool) {
	v := e.val
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		l.errorf(v, kindType, "%q must be a duration such as \"30s\", \"5m\", \"2h\" or \"7d\", not %s", e.key.Value, describe(v))
		return 0, false
	}
	d, err := lang.ParseDuration(v.Value)
	if err != nil {
		l.errorf(v, kindValue, "%q: %v", e.key.Value, err)
		return 0, false
	}
	return d, true
}

// integer reads e.val as an integer of at least min.
func (l *reader) integer(e entry, min int) (int, bool) {
	v := e.val
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		l.errorf(v, kindType, "%q must be an integer, not %s", e.key.Value, describe(v))
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 32)
	if err != nil {
		l.errorf(v, kindValue, "%q must be an integer, not %s", e.key.Value, describe(v))
		return 0, false
	}
	if int(n) < min {
		l.errorf(v, kindValue, "%q must be at least %d, not %d", e.key.Value, min, n)
		return 0, false
	}
	return int(n), true
}

// enum reads e.val as one of allowed.
func (l *reader) enum(e entry, allowed []string) (string, bool) {
	s, ok := l.str(e)
	if !ok {
		return "", false
	}
	if slices.Contains(allowed, s) {
		return s, true
	}
	if sug := lang.Suggest(s, allowed); sug != "" {
		l.errorf(e.val, kindValue, "%q must be one of %s, not %q; did you mean %q?", e.key.Value, lang.QuoteList(allowed), s, sug)
	} else {
		l.errorf(e.val, kindValue, "%q must be one of %s, not %q", e.key.Value, lang.QuoteList(allowed), s)
	}
	return "", false
}

// keyValues reads mapping e.val as a list of values with templates compiled.
func (l *reader) keyValues(e entry, where string) []lang.KeyValue {
	v := l.value(e.val, e.key.Value, where)
	if v.Kind != lang.KindMap {
		l.errorf(e.val, kindType, "%q must be a mapping, not %s", e.key.Value, describe(e.val))
		return nil
	}
	return v.Map
}

// value reads n as a Value tree, compiling the templates of its strings. name is what
// n is called in errors, where the mapping it belongs to.
func (l *reader) value(n *yaml.Node, name, where string) lang.Value {
	n = deref(n)
	out := lang.Value{Pos: l.pos(n)}
	switch n.Kind {
	case yaml.ScalarNode:
		out.Scalar = n.Value
		switch n.Tag {
		case "!!null":
			out.Kind = lang.KindNull
		case "!!int":
			out.Kind = lang.KindInt
		case "!!float":
			out.Kind = lang.KindFloat
		case "!!bool":
			out.Kind = lang.KindBool
		default:
			out.Kind = lang.KindString
			if strings.Contains(n.Value, "{{") {
				out.Template = l.templateNode(n, name)
			}
		}
	case yaml.SequenceNode:
		out.Kind = lang.KindList
		out.List = []lang.Value{}
		for _, c := range n.Content {
			out.List = append(out.List, l.value(c, name, where))
		}
	case yaml.MappingNode:
		out.Kind = lang.KindMap
		out.Map = []lang.KeyValue{}
		for _, e := range l.entries(n, name, where) {
			out.Map = append(out.Map, lang.KeyValue{Key: e.key.Value, KeyPos: l.pos(e.key),
				Value: l.value(e.val, e.key.Value, where)})
		}
	}
	return out
}
