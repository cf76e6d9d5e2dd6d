package lang

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// Env is what an expression reads when it runs: the roots "trigger", "context",
// "variables", "stages", "branches", "github", "outputs", "run" and "subject" (see
// ExprRoots), plus "agents" (the agent names, for the agent_for_branch filter). A root
// missing from the map reads as an empty mapping ("branches": an empty list).
type Env = map[string]any

// Expr is a compiled expression (`condition:`, `if:`, `poll.condition`, `check: expr`).
// CompileExpr fills it; the zero value does not run.
type Expr struct {
	Src   string
	Pos   Pos
	prog  *vm.Program
	roots []string // the roots (github, stages, context, …) the expression reads
}

// Roots returns the roots the expression reads (`github`, `stages`, `context`, …), sorted.
func (e *Expr) Roots() []string { return slices.Clone(e.roots) }

// Template is a compiled string with `{{ … }}` parts. CompileTemplate fills it.
type Template struct {
	Src   string
	Pos   Pos
	parts []TemplatePart
}

// Parts returns the parts of t in order, for the evaluator's renderings that escape
// each value as its place needs. The caller does not modify them.
func (t *Template) Parts() []TemplatePart { return t.parts }

// TemplatePart is literal text, or an expression when Expr is set.
type TemplatePart struct {
	Text string
	Expr *Expr
}

const KindExpr = "expr"

// exprWrapped reports whether src is one `{{ … }}` with only spaces around it, and returns
// the text between the braces and its rune offset in src.
func exprWrapped(src string) (string, int, bool) {
	t := strings.TrimSpace(src)
	if !strings.HasPrefix(t, "{{") || !strings.HasSuffix(t, "}}") || len(t) < 4 {
		return "", 0, false
	}
	inner := t[2 : len(t)-2]
	if strings.Contains(inner, "{{") || strings.Contains(inner, "}}") {
		return "", 0, false
	}
	lead := len(src) - len(strings.TrimLeftFunc(src, unicode.IsSpace))
	return inner, len([]rune(src[:lead])) + 2, true
}

func exprLeadingSpace(s string) int {
	return utf8.RuneCountInString(s[:len(s)-len(strings.TrimLeftFunc(s, unicode.IsSpace))])
}

// exprPosAt returns the position of rune offset off of src, which is written at pos. Only
// offsets on src's first line move the column: later lines of a YAML scalar are
// indented in ways the text no longer shows.
func exprPosAt(pos Pos, src string, off int) Pos {
	if off < 0 {
		return pos
	}
	n := 0 // runes before off (or in src, when it is shorter)
	for _, c := range src {
		if n == off {
			break
		}
		if c == '\n' {
			return pos
		}
		n++
	}
	pos.Col += n
	return pos
}

// lowerMessage lowercases an expr-lang message outside its quoted parts, which name
// things the user wrote.
func lowerMessage(msg string) string {
	var b strings.Builder
	quoted := false
	for _, c := range msg {
		if c == '"' {
			quoted = !quoted
		}
		if !quoted {
			c = unicode.ToLower(c)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Eval runs the expression over env.
func (e *Expr) Eval(env Env) (any, error) {
	if e == nil || e.prog == nil {
		return nil, errors.New("expression was not compiled")
	}
	out, err := expr.Run(e.prog, runEnv(env))
	if err != nil {
		var fe *file.Error
		msg := err.Error()
		if errors.As(err, &fe) {
			msg = fe.Message
		}
		return nil, fmt.Errorf("evaluating %q at %s: %s", e.Src, e.Pos, lowerMessage(msg))
	}
	return out, nil
}

// Bool runs the expression over env and requires a boolean result; anything else,
// null included, is an error.
func (e *Expr) Bool(env Env) (bool, error) {
	v, err := e.Eval(env)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("expression %q at %s gave %s, not true or false", e.Src, e.Pos, describeValue(v))
	}
	return b, nil
}

// describeValue names a value for an error message.
func describeValue(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%s %s", valueTypeWord(v), RenderValue(v))
}

func valueTypeWord(v any) string {
	switch v.(type) {
	case string:
		return "the string"
	case int, int64, float64, float32, int32, uint, uint64:
		return "the number"
	case []any, []string:
		return "the list"
	case map[string]any:
		return "the mapping"
	}
	return fmt.Sprintf("the %T", v)
}
