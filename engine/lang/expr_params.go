package lang

import "gopkg.in/yaml.v3"

// This file holds the Params getters for expressions and templates, so a gate compiles
// its expressions while the config loads, with positions inside the file.

// CompileWith makes p's getters compile with c, which shares the programs of the
// texts it compiled before; it returns p.
func (p *Params) CompileWith(c *Compiler) *Params {
	p.compiler = c
	return p
}

// ValuePos returns the position of key's value (the condition's, when key is absent).
func (p *Params) ValuePos(key string) Pos {
	if n, ok := p.get(key); ok {
		return p.pos(n)
	}
	return p.Pos
}

// textPos returns the position of the first character of scalar n's text: after the
// quote of a quoted scalar. For a block scalar it is the indicator's position, as the
// indentation of the text is not known here.
func (p *Params) textPos(n *yaml.Node) Pos {
	pos := p.pos(n)
	if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
		pos.Col++
	}
	return pos
}

// scalarText returns key's value as text, recording a type error for anything but a
// non-null scalar.
func (p *Params) scalarText(key, what string) (*yaml.Node, bool) {
	n, ok := p.get(key)
	if !ok {
		return nil, false
	}
	p.used[key] = true
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%q of check %q must be %s", key, p.Check, what)
		return nil, false
	}
	return n, true
}

// Expr compiles key as an expression (see CompileExpr); nil when absent or invalid, in
// which case the error, of kind "expr", is recorded.
func (p *Params) Expr(key string) *Expr {
	n, ok := p.scalarText(key, "an expression")
	if !ok {
		return nil
	}
	e, err := p.compiler.Expr(n.Value, p.textPos(n))
	if err != nil {
		p.errs = append(p.errs, err)
		return nil
	}
	return e
}

// Template compiles key as a template (see CompileTemplate); nil when absent or invalid,
// in which case the error is recorded.
func (p *Params) Template(key string) *Template {
	n, ok := p.scalarText(key, "a string")
	if !ok {
		return nil
	}
	t, err := p.compiler.Template(n.Value, p.textPos(n))
	if err != nil {
		p.errs = append(p.errs, err)
		return nil
	}
	return t
}
