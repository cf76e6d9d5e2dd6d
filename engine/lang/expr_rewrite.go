package lang

import "unicode"

// rewritten is an expression as expr-lang reads it, with, for each of its runes, the
// rune offset in the text the user wrote, so that errors point into the config file.
type rewritten struct {
	text []rune
	orig []int
}

func (r *rewritten) emit(c rune, from int) {
	r.text = append(r.text, c)
	r.orig = append(r.orig, from)
}

func (r *rewritten) emitString(s string, from int) {
	for _, c := range s {
		r.emit(c, from)
	}
}

// origin returns the offset in the user's text of rune off of the rewritten text;
// the end of the rewritten text maps to end.
func (r *rewritten) origin(off, end int) int {
	if off >= 0 && off < len(r.orig) {
		return r.orig[off]
	}
	return end
}

func isIdentRune(c rune) bool {
	return c == '_' || c == '$' || unicode.IsLetter(c) || unicode.IsDigit(c)
}

// rewrite turns the reference's spellings into expr-lang:
//
//   - a bare filter `x | name` becomes the pipe call `x | name()` (a name already
//     followed by `(` is left alone, and so is `||`);
//   - a spread `list.*.rest` becomes `map(list, #.rest)`, so `branches.*.feedback` is the
//     list of every branch's feedback; spreads nest (`a.*.b.*.c` is
//     `map(a, map(#.b, #.c))`).
//
// String literals are copied untouched.
func rewrite(src string) rewritten {
	in := []rune(src)
	var out rewritten
	peek := func(i int) rune {
		if i >= 0 && i < len(in) {
			return in[i]
		}
		return 0
	}
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = copyString(in, i, &out)
		case c == '|' && peek(i+1) != '|' && peek(i-1) != '|':
			out.emit(c, i)
			i++
			for i < len(in) && unicode.IsSpace(in[i]) {
				out.emit(in[i], i)
				i++
			}
			start := i
			for i < len(in) && isIdentRune(in[i]) {
				out.emit(in[i], i)
				i++
			}
			if i == start {
				continue // not a filter name; the parser will say what is wrong
			}
			j := i
			for j < len(in) && unicode.IsSpace(in[j]) {
				j++
			}
			if peek(j) != '(' {
				out.emitString("()", i)
			}
		case c == '.' && peek(i+1) == '*' && len(out.text) > 0 && endsOperand(out.text[len(out.text)-1]):
			i = spread(in, i, &out)
		default:
			out.emit(c, i)
			i++
		}
	}
	return out
}

// endsOperand reports whether c can end the list a spread applies to.
func endsOperand(c rune) bool { return isIdentRune(c) || c == ']' || c == ')' || c == '#' }

// spread rewrites the spread starting at in[i] (".*") and the member chain after it.
func spread(in []rune, i int, out *rewritten) int {
	open := 0
	for {
		// Wrap the operand already emitted: a member chain (names, dots, indexes).
		at := operandStart(out.text)
		head := rewritten{text: append([]rune(nil), out.text[at:]...), orig: append([]int(nil), out.orig[at:]...)}
		from := out.origin(at, i)
		out.text, out.orig = out.text[:at], out.orig[:at]
		out.emitString("map(", from)
		out.text = append(out.text, head.text...)
		out.orig = append(out.orig, head.orig...)
		out.emitString(", #", i)
		open++
		i += 2
		// Copy the chain after the spread: .name, ?.name and [index], up to another spread.
		again := false
	chain:
		for i < len(in) {
			switch {
			case in[i] == '.' && i+1 < len(in) && in[i+1] == '*':
				again = true
				break chain
			case in[i] == '.' || (in[i] == '?' && i+1 < len(in) && in[i+1] == '.'):
				for i < len(in) && (in[i] == '.' || in[i] == '?') {
					out.emit(in[i], i)
					i++
				}
				for i < len(in) && isIdentRune(in[i]) {
					out.emit(in[i], i)
					i++
				}
				continue
			case in[i] == '[':
				i = copyBracket(in, i, out)
				continue
			}
			break
		}
		if again {
			continue
		}
		for ; open > 0; open-- {
			out.emit(')', i)
		}
		return i
	}
}

// operandStart returns where the member chain ending text begins.
func operandStart(text []rune) int {
	i := len(text)
	for i > 0 {
		c := text[i-1]
		switch {
		case isIdentRune(c) || c == '.' || c == '?' || c == '#':
			i--
		case c == ']':
			depth := 0
			for i > 0 {
				i--
				if text[i] == ']' {
					depth++
				} else if text[i] == '[' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
		default:
			return i
		}
	}
	return i
}

// copyBracket copies a balanced [...] group (strings inside it included) starting at in[i].
func copyBracket(in []rune, i int, out *rewritten) int {
	depth := 0
	for i < len(in) {
		c := in[i]
		switch c {
		case '"', '\'', '`':
			i = copyString(in, i, out)
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		out.emit(c, i)
		i++
		if depth == 0 {
			break
		}
	}
	return i
}

// copyString copies the string literal starting at in[i], up to and including its
// closing quote (or the end of the text when it is unterminated).
func copyString(in []rune, i int, out *rewritten) int {
	q := in[i]
	out.emit(q, i)
	i++
	for i < len(in) {
		c := in[i]
		out.emit(c, i)
		i++
		if c == '\\' && q != '`' && i < len(in) {
			out.emit(in[i], i)
			i++
			continue
		}
		if c == q {
			break
		}
	}
	return i
}
