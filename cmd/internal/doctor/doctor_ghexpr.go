package doctor

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
)

// A GitHub Actions expression (a job's `if:`, `cancel-in-progress:`) is evaluated here
// with only part of its context known: the event's name and action. Whatever else it
// reads is unknown, and the evaluation is three-valued, so that doctor calls an event
// skipped only when the expression is false whatever the rest of the context holds.

type ghKind int

const (
	ghUnknown ghKind = iota
	ghNull
	ghBool
	ghNum
	ghStr
	ghArray
)

type ghValue struct {
	kind ghKind
	b    bool
	n    float64
	s    string
	a    []ghValue
}

var unknownValue = ghValue{kind: ghUnknown}

// truth is the value's truthiness as GitHub defines it; known is false for an unknown value.
func (v ghValue) truth() (truthy, known bool) {
	switch v.kind {
	case ghNull:
		return false, true
	case ghBool:
		return v.b, true
	case ghNum:
		return v.n != 0, true
	case ghStr:
		return v.s != "", true
	case ghArray:
		return true, true
	}
	return false, false
}

func boolValue(b bool) ghValue { return ghValue{kind: ghBool, b: b} }

// ghContext is what is known of the context: dotted paths ("github.event_name") → value.
type ghContext map[string]ghValue

// evalGitHubExpr evaluates an `if:`-style text: with or without `${{ }}`. A text that
// does not parse is unknown.
func evalGitHubExpr(text string, ctx ghContext) ghValue {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "${{") && strings.HasSuffix(t, "}}") && strings.Count(t, "${{") == 1 {
		t = strings.TrimSpace(t[3 : len(t)-2])
	} else if strings.Contains(t, "${{") {
		return unknownValue
	}
	p := &ghParser{src: t, ctx: ctx}
	v, ok := p.or()
	p.space()
	if !ok || p.pos != len(p.src) {
		return unknownValue
	}
	return v
}

// definitelyFalse reports whether an `if:` is false whatever the unknown context holds.
// An empty `if:` is true.
func definitelyFalse(text string, ctx ghContext) bool {
	if strings.TrimSpace(text) == "" {
		return false
	}
	truthy, known := evalGitHubExpr(text, ctx).truth()
	return known && !truthy
}

type ghParser struct {
	src string
	pos int
	ctx ghContext
}

func (p *ghParser) space() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *ghParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.src[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *ghParser) or() (ghValue, bool) {
	l, ok := p.and()
	for ok && p.eat("||") {
		var r ghValue
		if r, ok = p.and(); !ok {
			break
		}
		lt, lk := l.truth()
		rt, rk := r.truth()
		switch {
		case lk && lt:
		case lk:
			l = r
		case rk && rt:
			l = boolValue(true)
		default:
			l = unknownValue
		}
	}
	return l, ok
}

func (p *ghParser) and() (ghValue, bool) {
	l, ok := p.cmp()
	for ok && p.eat("&&") {
		var r ghValue
		if r, ok = p.cmp(); !ok {
			break
		}
		lt, lk := l.truth()
		rt, rk := r.truth()
		switch {
		case lk && !lt:
		case lk:
			l = r
		case rk && !rt:
			l = boolValue(false)
		default:
			l = unknownValue
		}
	}
	return l, ok
}

func (p *ghParser) cmp() (ghValue, bool) {
	l, ok := p.unary()
	for ok {
		var op string
		for _, o := range []string{"==", "!=", "<=", ">=", "<", ">"} {
			if p.eat(o) {
				op = o
				break
			}
		}
		if op == "" {
			break
		}
		var r ghValue
		if r, ok = p.unary(); !ok {
			break
		}
		l = compare(op, l, r)
	}
	return l, ok
}

// compare compares as GitHub does where it is plain (strings without regard to case,
// like kinds); anything else is unknown.
func compare(op string, l, r ghValue) ghValue {
	if l.kind == ghUnknown || r.kind == ghUnknown || l.kind != r.kind {
		return unknownValue
	}
	if op == "==" || op == "!=" {
		var eq bool
		switch l.kind {
		case ghStr:
			eq = strings.EqualFold(l.s, r.s)
		case ghNum:
			eq = l.n == r.n
		case ghBool:
			eq = l.b == r.b
		case ghNull:
			eq = true
		default:
			return unknownValue
		}
		return boolValue(eq == (op == "=="))
	}
	if l.kind != ghNum {
		return unknownValue
	}
	switch op {
	case "<":
		return boolValue(l.n < r.n)
	case "<=":
		return boolValue(l.n <= r.n)
	case ">":
		return boolValue(l.n > r.n)
	}
	return boolValue(l.n >= r.n)
}

func (p *ghParser) unary() (ghValue, bool) {
	if p.eat("!") {
		v, ok := p.unary()
		if t, known := v.truth(); known {
			return boolValue(!t), ok
		}
		return unknownValue, ok
	}
	return p.primary()
}

func (p *ghParser) primary() (ghValue, bool) {
	p.space()
	if p.pos >= len(p.src) {
		return unknownValue, false
	}
	c := p.src[p.pos]
	switch {
	case c == '(':
		p.pos++
		v, ok := p.or()
		return v, ok && p.eat(")")
	case c == '\'':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && strings.ContainsRune("+-.0123456789abcdefxABCDEFX", rune(p.src[p.pos])) {
			p.pos++
		}
		n, err := strconv.ParseFloat(p.src[start:p.pos], 64)
		return ghValue{kind: ghNum, n: n}, err == nil
	case c == '_' || unicode.IsLetter(rune(c)):
		return p.name()
	}
	return unknownValue, false
}

func (p *ghParser) str() (ghValue, bool) {
	var b strings.Builder
	for p.pos++; p.pos < len(p.src); p.pos++ {
		if p.src[p.pos] != '\'' {
			b.WriteByte(p.src[p.pos])
			continue
		}
		if p.pos+1 < len(p.src) && p.src[p.pos+1] == '\'' {
			b.WriteByte('\'')
			p.pos++
			continue
		}
		p.pos++
		return ghValue{kind: ghStr, s: b.String()}, true
	}
	return unknownValue, false
}

func (p *ghParser) ident() string {
	start := p.pos
	for p.pos < len(p.src) && (p.src[p.pos] == '_' || p.src[p.pos] == '-' ||
		unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos]))) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// name reads a literal, a function call or a property path (github.event.action,
// github['event_name']); a path the context does not hold is unknown.
func (p *ghParser) name() (ghValue, bool) {
	id := p.ident()
	switch strings.ToLower(id) {
	case "true", "false":
		return boolValue(strings.EqualFold(id, "true")), true
	case "null":
		return ghValue{kind: ghNull}, true
	}
	if p.eat("(") {
		return p.call(strings.ToLower(id))
	}
	path, known := strings.ToLower(id), true
	for {
		switch {
		case p.eat("."):
			if seg := p.ident(); seg != "" && seg != "*" {
				path += "." + strings.ToLower(seg)
				continue
			}
			if p.eat("*") {
				known = false
				continue
			}
			return unknownValue, false
		case p.eat("["):
			k, ok := p.or()
			if !ok || !p.eat("]") {
				return unknownValue, false
			}
			if k.kind == ghStr {
				path += "." + strings.ToLower(k.s)
			} else {
				known = false
			}
			continue
		}
		break
	}
	if v, ok := p.ctx[path]; ok && known {
		return v, true
	}
	return unknownValue, true
}

// call evaluates the functions whose result follows from known arguments; the job
// status functions are unknown but always(), which is true.
func (p *ghParser) call(fn string) (ghValue, bool) {
	var args []ghValue
	if !p.eat(")") {
		for {
			v, ok := p.or()
			if !ok {
				return unknownValue, false
			}
			args = append(args, v)
			if p.eat(")") {
				break
			}
			if !p.eat(",") {
				return unknownValue, false
			}
		}
	}
	return callFunction(fn, args), true
}

func callFunction(fn string, args []ghValue) ghValue {
	if fn == "always" {
		return boolValue(true)
	}
	if fn == "fromjson" && len(args) == 1 && args[0].kind == ghStr {
		var v any
		if json.Unmarshal([]byte(args[0].s), &v) != nil {
			return unknownValue
		}
		return fromJSONValue(v)
	}
	if len(args) != 2 || args[0].kind == ghUnknown || args[1].kind == ghUnknown {
		return unknownValue
	}
	a, b := args[0], args[1]
	switch fn {
	case "contains":
		if a.kind == ghArray {
			for _, e := range a.a {
				eq := compare("==", e, b)
				if eq.kind == ghUnknown {
					return unknownValue
				}
				if eq.b {
					return boolValue(true)
				}
			}
			return boolValue(false)
		}
		if a.kind == ghStr && b.kind == ghStr {
			return boolValue(strings.Contains(strings.ToLower(a.s), strings.ToLower(b.s)))
		}
	case "startswith", "endswith":
		if a.kind == ghStr && b.kind == ghStr {
			has := strings.HasPrefix
			if fn == "endswith" {
				has = strings.HasSuffix
			}
			return boolValue(has(strings.ToLower(a.s), strings.ToLower(b.s)))
		}
	}
	return unknownValue
}

func fromJSONValue(v any) ghValue {
	switch x := v.(type) {
	case nil:
		return ghValue{kind: ghNull}
	case bool:
		return boolValue(x)
	case float64:
		return ghValue{kind: ghNum, n: x}
	case string:
		return ghValue{kind: ghStr, s: x}
	case []any:
		out := ghValue{kind: ghArray}
		for _, e := range x {
			out.a = append(out.a, fromJSONValue(e))
		}
		return out
	}
	return unknownValue
}
