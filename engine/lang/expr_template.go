package lang

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CompileTemplate compiles text with `{{ … }}` parts, written at pos (the position of
// the text's first character). Text without `{{` is a constant template. An unclosed
// `{{` and an empty `{{ }}` are errors of kind "expr", as are the errors of CompileExpr
// for each part.
func CompileTemplate(src string, pos Pos) (*Template, *Error) {
	return (*Compiler)(nil).Template(src, pos)
}

// Template is CompileTemplate, compiling each distinct expression text once.
func (c *Compiler) Template(src string, pos Pos) (*Template, *Error) {
	t := &Template{Src: src, Pos: pos}
	rs := []rune(src)
	text := func(from, to int) {
		if to > from {
			t.parts = append(t.parts, TemplatePart{Text: string(rs[from:to])})
		}
	}
	lit := 0
	for i := 0; i < len(rs); {
		if !(rs[i] == '{' && i+1 < len(rs) && rs[i+1] == '{') {
			i++
			continue
		}
		text(lit, i)
		open := i
		end := closeBraces(rs, i+2)
		if end < 0 {
			return nil, &Error{Pos: exprPosAt(pos, src, open), Kind: KindExpr,
				Message: `unclosed "{{" in template; end the expression with "}}"`}
		}
		code := string(rs[open+2 : end])
		if strings.TrimSpace(code) == "" {
			return nil, &Error{Pos: exprPosAt(pos, src, open), Kind: KindExpr, Message: `empty "{{ }}" in template`}
		}
		e, err := c.compile(src, open+2, code, pos)
		if err != nil {
			return nil, err
		}
		t.parts = append(t.parts, TemplatePart{Expr: e})
		i = end + 2
		lit = i
	}
	text(lit, len(rs))
	return t, nil
}

// closeBraces returns the index of the "}}" that ends the expression starting at rs[i],
// skipping string literals, or -1.
func closeBraces(rs []rune, i int) int {
	for i < len(rs) {
		switch c := rs[i]; {
		case c == '"' || c == '\'' || c == '`':
			i++
			for i < len(rs) && rs[i] != c {
				if rs[i] == '\\' && c != '`' {
					i++
				}
				i++
			}
			i++
		case c == '}' && i+1 < len(rs) && rs[i+1] == '}':
			return i
		default:
			i++
		}
	}
	return -1
}

// IsConstant reports whether the template has no `{{ … }}` part.
func (t *Template) IsConstant() bool {
	for _, p := range t.parts {
		if p.Expr != nil {
			return false
		}
	}
	return true
}

// Exprs returns the template's expressions, in order.
func (t *Template) Exprs() []*Expr {
	var out []*Expr
	for _, p := range t.parts {
		if p.Expr != nil {
			out = append(out, p.Expr)
		}
	}
	return out
}

// Render fills the template from env. A value renders as text: null as nothing, whole
// numbers without a fraction ("42", not "42.0"), lists and mappings as JSON.
func (t *Template) Render(env Env) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.Expr == nil {
			b.WriteString(p.Text)
			continue
		}
		v, err := p.Expr.Eval(env)
		if err != nil {
			return "", err
		}
		b.WriteString(RenderValue(v))
	}
	return b.String(), nil
}

// Value fills the template from env and keeps the value's type when the template is a
// single `{{ … }}` with nothing around it (`prs: "{{ context.prs }}"` stays a list);
// otherwise it renders text as Render does.
func (t *Template) Value(env Env) (any, error) {
	if len(t.parts) == 1 && t.parts[0].Expr != nil {
		return t.parts[0].Expr.Eval(env)
	}
	return t.Render(env)
}

// RenderValue writes v as template text.
func RenderValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}
