package lang

import (
	"strings"

	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser/lexer"
)

// ExprAs is Expr with the name alias read as the root root, which must be no longer:
// a check may name what it judges in its own words (`response` for the answer of an
// http check) while the root stays one the language knows. Positions and the text
// messages quote are the text as written.
func (p *Params) ExprAs(key, alias, root string) *Expr {
	n, ok := p.scalarText(key, "an expression")
	if !ok {
		return nil
	}
	e, err := p.compiler.Expr(renameRoot(n.Value, alias, root), p.textPos(n))
	if err != nil {
		p.errs = append(p.errs, err)
		return nil
	}
	out := *e
	src := n.Value
	if inner, _, ok := exprWrapped(src); ok {
		src = inner
	}
	out.Src = strings.TrimSpace(src)
	return &out
}

// renameRoot writes root, padded with spaces to alias's length so that every offset
// stays where it was, for each identifier alias of text that starts a path (not a
// member: `x.response` stays). A text that does not lex is left as it is.
func renameRoot(text, alias, root string) string {
	if len(root) > len(alias) || !strings.Contains(text, alias) {
		return text
	}
	toks, err := lexer.Lex(file.NewSource(text))
	if err != nil {
		return text
	}
	rs := []rune(text)
	for i, t := range toks {
		if t.Kind != lexer.Identifier || t.Value != alias {
			continue
		}
		if i > 0 && toks[i-1].Is(lexer.Operator, ".", "?.") {
			continue
		}
		if t.To-t.From != len([]rune(alias)) || t.From < 0 || t.To > len(rs) {
			continue
		}
		copy(rs[t.From:], []rune(root+strings.Repeat(" ", len(alias)-len(root))))
	}
	return string(rs)
}
