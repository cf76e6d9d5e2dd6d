package load

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The YAML parser names a line for most syntax errors but no column, and the line is
// often not the mistake's: for a parser error it is the line before the start of the
// construct being parsed (a mapping that began lines above), for some scanner errors
// none at all. yamlSyntax finds the real position of the common mistakes, and says
// what to change:
//
//   - the byte at which the parser fails is found by bisection: parsing src[:n] fails
//     with the same problem exactly when n is past that byte (a valid prefix of a
//     document parses, since the end of input closes every open block);
//   - a quoted value or a flow list or mapping that is never closed fails at the end
//     of the file, so it is reported where it opened instead;
//   - a line whose indentation matches no open block is told so, with the indentations
//     that would fit.
//
// It falls back to the parser's line, column 1, when none of this finds anything.
type yamlSyntax struct {
	src     []byte
	problem string   // the parser's message, without "yaml: line N: "
	line    int      // the line the parser names, 0 when it names none
	lines   [][]byte // src's lines, without their "\n"
	starts  []int    // the offset of each line in src
	probes  int      // the prefixes it may still parse
	bytes   int      // and their total size
}

// The search is bounded, so that a hostile file costs a few parses of itself, not one
// per character: at most maxProbes prefixes, of maxProbeBytes in all (a parse of a
// megabyte takes about 80 ms), and at most maxCandidates brackets or quotes tried on a
// line. A file whose mistake is not found within that is reported at the parser's line.
const (
	maxProbes     = 64
	maxProbeBytes = 8 << 20
	maxCandidates = 16
)

var yamlProblemLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: (?:line (\d+): )?`) })

func newYAMLSyntax(src []byte, err error) *yamlSyntax {
	y := &yamlSyntax{src: src, probes: maxProbes, bytes: maxProbeBytes}
	y.problem, y.line = splitYAMLError(err)
	y.lines = bytes.Split(src, []byte("\n"))
	off := 0
	for _, ln := range y.lines {
		y.starts = append(y.starts, off)
		off += len(ln) + 1
	}
	return y
}

// splitYAMLError returns the message of a parser error and the line it names.
func splitYAMLError(err error) (string, int) {
	msg := err.Error()
	m := yamlProblemLine().FindStringSubmatch(msg)
	if m == nil {
		return msg, 0
	}
	line, _ := strconv.Atoi(m[1])
	return msg[len(m[0]):], line
}

// parse parses src as the loader does, within the budget: ok is false when it is spent.
func (y *yamlSyntax) parse(src []byte) (ok bool, err error) {
	if y.probes <= 0 || y.bytes < len(src) {
		y.probes = 0
		return false, nil
	}
	y.probes--
	y.bytes -= len(src)
	var doc yaml.Node
	return true, decodeYAML(src, &doc)
}

// fails says whether src[:n] fails to parse with the same problem as src; ok is false
// when the budget is spent.
func (y *yamlSyntax) fails(n int) (failed, ok bool) {
	return y.failsWith(y.src[:n])
}

// failsWith says whether src fails to parse with the same problem as the file.
func (y *yamlSyntax) failsWith(src []byte) (failed, ok bool) {
	ok, err := y.parse(src)
	if !ok || err == nil {
		return false, ok
	}
	p, _ := splitYAMLError(err)
	return p == y.problem, true
}

// failure returns the offset of the byte at which the parser fails: src[:off+1] fails
// with the problem and src[:off] does not. The search starts a line above the line the
// parser names (the problem lies after the start of the construct it names) and gallops
// forward, so that it parses short prefixes when the problem is near that line.
func (y *yamlSyntax) failure() (int, bool) {
	lo := 0 // src[:lo] parses, or fails otherwise
	if y.line > 2 && y.line-2 < len(y.starts) {
		lo = y.starts[y.line-2]
		if failed, ok := y.fails(lo); !ok {
			return 0, false
		} else if failed {
			lo = 0 // the cut fell inside a construct
		}
	}
	hi := len(y.src) // src[:hi] fails with the problem
	for step := 256; lo+step < hi; step *= 2 {
		failed, ok := y.fails(lo + step)
		if !ok {
			return 0, false
		}
		if failed {
			hi = lo + step
			break
		}
		lo += step
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		failed, ok := y.fails(mid)
		if !ok {
			return 0, false
		}
		if failed {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi - 1, true
}

// at returns the 1-based line and column (in characters) of offset off.
func (y *yamlSyntax) at(off int) (line, col int) {
	off = min(max(off, 0), len(y.src))
	line = bytes.Count(y.src[:off], []byte("\n")) + 1
	start := y.starts[line-1]
	return line, utf8.RuneCount(y.src[start:off]) + 1
}

// text returns line (1-based), or nil outside the file.
func (y *yamlSyntax) text(line int) []byte {
	if line < 1 || line > len(y.lines) {
		return nil
	}
	return bytes.TrimSuffix(y.lines[line-1], []byte("\r"))
}

// indent returns the number of spaces line starts with.
func indentOfLine(ln []byte) int {
	return len(ln) - len(bytes.TrimLeft(ln, " "))
}

// locate returns the position of the mistake and a message that says what to change.
func (y *yamlSyntax) locate() (line, col int, msg string) {
	if line, col, msg, ok := y.locateUnclosed(); ok {
		return line, col, msg
	}
	off, ok := y.failure()
	if !ok {
		line = max(y.line, 1)
		return line, 1, y.problem
	}
	line, col = y.at(off)
	if tl, tc, ok := y.tabInIndentation(line); ok && y.indentationProblem() {
		return tl, tc, "tab characters are not allowed in indentation; use spaces"
	}
	var ch rune
	if off < len(y.src) {
		ch, _ = utf8.DecodeRune(y.src[off:])
	}
	return y.explain(line, col, ch)
}

// locateUnclosed finds a quoted value or flow collection the parser reached the end of
// the file in, and a flow collection the parser fails inside.
func (y *yamlSyntax) locateUnclosed() (line, col int, msg string, ok bool) {
	switch y.problem {
	case "found unexpected end of stream":
		if line, col, q, ok := y.unclosedQuote(); ok {
			return line, col, fmt.Sprintf("this quoted value is never closed; add the closing %s", q), true
		}
	case "did not find expected ',' or ']'", "did not find expected ',' or '}'":
		open, shut := byte('['), byte(']')
		what := "list"
		if strings.HasSuffix(y.problem, "'}'") {
			open, shut, what = '{', '}', "mapping"
		}
		if line, col, ok := y.unclosedFlow(open, shut); ok {
			return line, col, fmt.Sprintf("this %s is never closed; add the closing %q", what, string(shut)), true
		}
		if off, ok := y.inFlow(open); ok {
			line, col := y.at(off)
			return line, col, fmt.Sprintf("expected \",\" or %q here; separate the items of a flow %s with commas", string(shut), what), true
		}
	}
	return 0, 0, "", false
}

// explain says what to change for the parser's problem at column col of line, where
// the character ch is.
func (y *yamlSyntax) explain(line, col int, ch rune) (int, int, string) {
	switch y.problem {
	case "found character that cannot start any token":
		switch ch {
		case '\t':
			return line, col, "tab characters are not allowed here; use spaces"
		case '@', '`':
			return line, col, fmt.Sprintf("%q is reserved and cannot start a value; put the value in quotes", string(ch))
		}
		return line, col, fmt.Sprintf("%q cannot start a value; put the value in quotes", string(ch))
	case "mapping values are not allowed in this context":
		if ch == ':' {
			return line, col, y.misplacedColon(line, col)
		}
	case "did not find expected key", "did not find expected '-' indicator":
		return y.unexpectedEntry(line, col, ch)
	case "block sequence entries are not allowed in this context":
		return line, col, "a list cannot start on the same line as its key; put each \"- item\" on a line of its own, indented under the key"
	case "found unknown escape character":
		return line, col, "unknown escape in a double-quoted value; write \\\\ for a backslash, or use single quotes"
	case "found a tab character that violates indentation", "found a tab character where an indentation space is expected":
		return line, col, "tab characters are not allowed in indentation; use spaces"
	}
	return line, col, y.problem
}

// misplacedColon explains a ":" at column col of line that the parser does not take
// for a value indicator.
func (y *yamlSyntax) misplacedColon(line, col int) string {
	text := y.text(line)
	first := indentOfLine(text) + 1 // the column of the line's first character
	if key, keyIndent, ok := y.valueAbove(line); ok && col > first && first-1 > keyIndent {
		return fmt.Sprintf("unexpected \":\": this line is indented more than %q above it, so it reads as the rest of that value; "+
			"align it with %q (column %d) to make it a key of the same mapping, or quote the value", key, key, keyIndent+1)
	}
	if bytes.Contains(text[:min(len(text), y.byteCol(line, col))], []byte(": ")) {
		return "a plain value cannot contain \": \"; put the value in quotes"
	}
	return "unexpected \":\"; a key must start its own line, and a value that contains \": \" must be quoted"
}

// unexpectedEntry explains text at column col of line, where ch is, that the parser
// takes for neither a key nor a list item of the block it is in.
func (y *yamlSyntax) unexpectedEntry(line, col int, ch rune) (int, int, string) {
	text := y.text(line)
	first := indentOfLine(text) + 1 // the column of the line's first character
	if ch == ':' && !bytes.Contains(text[first-1:y.byteCol(line, col)], []byte(": ")) {
		col = first // the key before the colon starts the mapping the parser did not expect
	}
	if col != first {
		if ch == '"' || ch == '\'' {
			col = y.openingQuote(line, col, byte(ch)) // a quoted value fails at its end
		}
		return line, col, "unexpected text after the value; quote the whole value, or start a new line for a new key"
	}
	open, opensBlock := y.openBlocks(line)
	ind := first - 1
	if !slices.Contains(open, ind) && (!opensBlock || ind <= open[len(open)-1]) {
		return line, col, fmt.Sprintf("this line is indented by %s, which matches no block above it (%s); indent it like the lines it belongs with",
			spaces(ind), nearestBlocks(open, ind))
	}
	if y.problem == "did not find expected key" {
		if bytes.HasPrefix(text[ind:], []byte("-")) {
			return line, col, "a list item cannot stand among the keys of a mapping; indent it under a key"
		}
		return line, col, "expected a key (\"name: value\") here, like the lines above at this indentation"
	}
	return line, col, "expected a list item (\"- …\") here, like the lines above at this indentation"
}

// openingQuote returns the column of the quote q that opens the quoted value closed
// at column col of line.
func (y *yamlSyntax) openingQuote(line, col int, q byte) int {
	text := y.text(line)
	end := y.byteCol(line, col)
	for i := end - 1; i >= 0; i-- {
		if text[i] != q || (q == '"' && i > 0 && text[i-1] == '\\') {
			continue
		}
		if q == '\'' && i > 0 && text[i-1] == '\'' {
			i-- // an escaped quote
			continue
		}
		return utf8.RuneCount(text[:i]) + 1
	}
	return col
}

// indentationProblem says whether the problem is one a tab in the indentation causes.
func (y *yamlSyntax) indentationProblem() bool {
	switch y.problem {
	case "found character that cannot start any token", "found a tab character that violates indentation",
		"found a tab character where an indentation space is expected", "did not find expected key",
		"did not find expected '-' indicator", "mapping values are not allowed in this context":
		return true
	}
	return false
}

// tabInIndentation returns the position of a tab in the leading white space of line.
func (y *yamlSyntax) tabInIndentation(line int) (int, int, bool) {
	text := y.text(line)
	lead := len(text) - len(bytes.TrimLeft(text, " \t"))
	if i := bytes.IndexByte(text[:lead], '\t'); i >= 0 && lead < len(text) {
		return line, i + 1, true
	}
	return 0, 0, false
}

// byteCol returns the byte index in line of column col.
func (y *yamlSyntax) byteCol(line, col int) int {
	text := y.text(line)
	i := 0
	for c := 1; c < col && i < len(text); c++ {
		_, w := utf8.DecodeRune(text[i:])
		i += w
	}
	return i
}

// valueAbove returns the key and the indentation of the content line before line when
// that line is `key: value` with the value on it, which a more indented line continues.
func (y *yamlSyntax) valueAbove(line int) (string, int, bool) {
	for l := line - 1; l >= 1; l-- {
		text := stripComment(y.text(l))
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		ind := indentOfLine(text)
		rest := text[ind:]
		for bytes.HasPrefix(rest, []byte("- ")) {
			rest = bytes.TrimLeft(rest[1:], " ")
			ind = len(text) - len(rest)
		}
		i := bytes.Index(rest, []byte(": "))
		if i <= 0 || len(bytes.TrimSpace(rest[i+1:])) == 0 {
			return "", 0, false
		}
		return string(rest[:i]), ind, true
	}
	return "", 0, false
}

var blockScalarHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[ :-])[|>][-+0-9]*$`) })

// openBlocks returns the indentations of the block collections still open before line,
// outermost first, and whether the content line before it opens a more indented one
// (`key:` or `-` with nothing after them).
func (y *yamlSyntax) openBlocks(line int) (open []int, opensBlock bool) {
	scalarIndent := -1 // lines more indented than this belong to a block scalar
	for l := 1; l < line; l++ {
		text := stripComment(y.text(l))
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		ind := indentOfLine(text)
		if scalarIndent >= 0 {
			if ind > scalarIndent {
				continue
			}
			scalarIndent = -1
		}
		if bytes.HasPrefix(text[ind:], []byte("---")) || bytes.HasPrefix(text[ind:], []byte("...")) {
			open = nil
			continue
		}
		for len(open) > 0 && open[len(open)-1] > ind {
			open = open[:len(open)-1]
		}
		if len(open) == 0 || open[len(open)-1] < ind {
			open = append(open, ind)
		}
		rest := bytes.TrimRight(text[ind:], " \t")
		// the content of a list item opens a block at its own column
		for col := ind; bytes.HasPrefix(rest, []byte("- ")); {
			after := bytes.TrimLeft(rest[1:], " ")
			col += len(rest) - len(after)
			rest = after
			open = append(open, col)
		}
		opensBlock = bytes.Equal(rest, []byte("-")) || bytes.HasSuffix(rest, []byte(":"))
		if blockScalarHeader().Match(rest) {
			scalarIndent = indentOfLine(text)
		}
	}
	return open, opensBlock
}

// stripComment returns text without a trailing comment (a # after a space, outside
// quotes).
func stripComment(text []byte) []byte {
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			if i == 0 || bytes.IndexByte([]byte(" \t[{,:-"), text[i-1]) >= 0 {
				quote = c
			}
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
			return text[:i]
		}
	}
	return text
}

// nearestBlocks names the indentations of the open blocks nearest to ind: "the blocks
// above it are indented by 6 and 8 spaces".
func nearestBlocks(open []int, ind int) string {
	below, above := -1, -1
	for _, o := range open {
		if o < ind {
			below = o
		} else if o > ind && above < 0 {
			above = o
		}
	}
	switch {
	case below >= 0 && above >= 0:
		return fmt.Sprintf("the nearest blocks above it are indented by %d and %s", below, spaces(above))
	case below >= 0:
		return "the innermost block above it is indented by " + spaces(below)
	case above >= 0:
		return "the outermost block above it is indented by " + spaces(above)
	}
	return "no block is open above it"
}

// spaces reads n as "1 space", "3 spaces".
func spaces(n int) string {
	if n == 1 {
		return "1 space"
	}
	return strconv.Itoa(n) + " spaces"
}
