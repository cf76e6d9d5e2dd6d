package load

import "bytes"

// Unclosed quoted values and flow collections fail at the end of the file; these
// find where they opened, and where the parser fails inside a closed one.

// unclosedQuote finds the quote that opens a quoted value running to the end of the
// file, on the line the parser names (a scanner error names the line where the value
// starts).
func (y *yamlSyntax) unclosedQuote() (line, col int, quote string, ok bool) {
	for _, l := range []int{y.line, 1} {
		text, tried := y.text(l), 0
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c != '"' && c != '\'' {
				continue
			}
			if tried++; tried > maxCandidates {
				break
			}
			off := y.starts[l-1] + i
			if !y.opensAt(off) || closes(y.src[off+1:], c) {
				continue
			}
			line, col = y.at(off)
			return line, col, string(c), true
		}
	}
	return 0, 0, "", false
}

// opensAt says whether the character at off starts a construct the parser has not
// finished at the end of src[:off+1]: src[:off] parses, src[:off+1] does not.
func (y *yamlSyntax) opensAt(off int) bool {
	if ok, err := y.parse(y.src[:off]); !ok || err != nil {
		return false
	}
	ok, err := y.parse(y.src[:off+1])
	return ok && err != nil
}

// closes says whether a quoted value whose opening quote q came just before rest is
// closed in rest.
func closes(rest []byte, q byte) bool {
	for i := 0; i < len(rest); i++ {
		switch {
		case q == '"' && rest[i] == '\\':
			i++
		case rest[i] == q:
			if q == '\'' && i+1 < len(rest) && rest[i+1] == '\'' {
				i++
				continue
			}
			return true
		}
	}
	return false
}

// unclosedFlow finds the bracket that opens a flow list or mapping left open at the
// end of the file. A parser error names the line before the one where the construct
// began (or no line for the first).
func (y *yamlSyntax) unclosedFlow(open, shut byte) (line, col int, ok bool) {
	for _, l := range []int{y.line + 1, y.line, 1} {
		text, tried := y.text(l), 0
		for i := 0; i < len(text); i++ {
			if text[i] != open {
				continue
			}
			if tried++; tried > maxCandidates {
				break
			}
			off := y.starts[l-1] + i
			if closedAt, _, _ := flowScan(y.src[off:]); closedAt >= 0 || !y.opensAt(off) {
				continue
			}
			line, col = y.at(off)
			return line, col, true
		}
	}
	return 0, 0, false
}

// inFlow returns where the parser fails inside a closed flow collection opened with
// the bracket open on the line the parser names (see unclosedFlow).
func (y *yamlSyntax) inFlow(open byte) (int, bool) {
	for _, l := range []int{y.line + 1, y.line, 1} {
		text, tried := y.text(l), 0
		for i := 0; i < len(text); i++ {
			if text[i] != open {
				continue
			}
			if tried++; tried > maxCandidates {
				break
			}
			off := y.starts[l-1] + i
			if !y.opensAt(off) {
				continue
			}
			if at, ok := y.flowFailure(off); ok {
				return at, true
			}
		}
	}
	return 0, false
}

// flowScan scans seg, which starts with the opening bracket of a flow collection. It
// returns the offset in seg of the bracket that closes that collection, or -1 and the
// brackets that would close what is open at the end of seg; cut says the end of seg
// is inside a quoted value or a comment, where no bracket would close anything.
func flowScan(seg []byte) (closedAt int, closers []byte, cut bool) {
	var stack []byte
	prev := byte(' ')
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case c == '[':
			stack = append(stack, ']')
		case c == '{':
			stack = append(stack, '}')
		case c == ']' || c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				return i, nil, false
			}
		case (c == '"' || c == '\'') && bytes.IndexByte([]byte(" \t\n[{,:"), prev) >= 0:
			j := i + 1
			for ; j < len(seg); j++ {
				if c == '"' && seg[j] == '\\' {
					j++
					continue
				}
				if seg[j] == c {
					if c == '\'' && j+1 < len(seg) && seg[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(seg) {
				return -1, nil, true
			}
			i = j
		case c == '#' && bytes.IndexByte([]byte(" \t\n"), prev) >= 0:
			j := bytes.IndexByte(seg[i:], '\n')
			if j < 0 {
				return -1, nil, true
			}
			i += j
		}
		prev = seg[i]
	}
	for i, j := 0, len(stack)-1; i < j; i, j = i+1, j-1 {
		stack[i], stack[j] = stack[j], stack[i]
	}
	return -1, stack, false
}

// flowFailure finds where the parser fails inside a flow collection that is closed,
// the one opening at off: bisecting over its prefixes, each closed with the brackets
// it needs, since a prefix left open fails with the same problem at its end.
func (y *yamlSyntax) flowFailure(off int) (int, bool) {
	closedAt, _, _ := flowScan(y.src[off:])
	if closedAt < 0 {
		return 0, false
	}
	fails := func(n int) (failed, ok bool) {
		_, closers, cut := flowScan(y.src[off:n])
		if cut {
			return false, true
		}
		return y.failsWith(append(append([]byte{}, y.src[:n]...), closers...))
	}
	lo, hi := off+1, off+closedAt+1
	if failed, ok := fails(lo); failed || !ok {
		return 0, false
	}
	if failed, ok := fails(hi); !failed || !ok {
		return 0, false
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		failed, ok := fails(mid)
		if !ok {
			return 0, false
		}
		if failed {
			hi = mid
		} else {
			lo = mid
		}
	}
	at := hi - 1
	if c := y.src[at]; (c == ' ' || c == '\t' || c == '\n') && y.src[at-1] == ':' {
		at-- // a value indicator fails on the blank after its colon
	}
	return at, true
}
