package lang

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxGlobLen bounds a glob and a path MatchGlob reads; longer ones never match.
const maxGlobLen = 4096

// MatchGlob reports whether the slash-separated path matches pattern, a glob of the
// configuration language (`paths_match`, `file_exists`):
//
//   - `*` matches any run of characters within one segment (it never crosses `/`);
//   - `?` matches one character other than `/`;
//   - `[abc]`, `[a-z]`, `[^a-z]` match one character of a class, `\x` the character x;
//   - a segment that is exactly `**` matches any number of whole segments, none included
//     (`src/**/auth/**` matches src/auth, src/a/b/auth/c.go); `**` inside a segment
//     (`a**b`) is two `*`.
//
// Dot-files are not special. A malformed pattern (see ValidGlob) matches nothing.
func MatchGlob(pattern, name string) bool {
	if ValidGlob(pattern) != nil || len(name) > maxGlobLen {
		return false
	}
	pat := strings.Split(pattern, "/")
	toks := make([][]globToken, len(pat))
	for i, seg := range pat {
		toks[i], _ = parseSegment(seg)
	}
	segs := strings.Split(name, "/")
	// done[i][j] memoises whether pat[i:] matches segs[j:] (0 unknown, 1 no, 2 yes): a
	// pattern of many `**` takes time proportional to len(pat)·len(segs), not exponential.
	done := make([][]uint8, len(pat)+1)
	for i := range done {
		done[i] = make([]uint8, len(segs)+1)
	}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if done[i][j] != 0 {
			return done[i][j] == 2
		}
		var ok bool
		switch {
		case i == len(pat):
			ok = j == len(segs)
		case pat[i] == "**":
			ok = match(i+1, j) || (j < len(segs) && match(i, j+1))
		case j < len(segs):
			ok = matchSegment(toks[i], segs[j]) && match(i+1, j+1)
		}
		done[i][j] = 1
		if ok {
			done[i][j] = 2
		}
		return ok
	}
	return match(0, 0)
}

// ValidGlob reports why pattern is not a glob MatchGlob reads: it is empty or longer than
// 4096 bytes, starts or ends with `/` or holds an empty segment (`a//b`: a path of the
// repository has none), or a segment is malformed (an unclosed `[`, a trailing `\`).
func ValidGlob(pattern string) error {
	switch {
	case pattern == "":
		return errors.New("a glob must not be empty")
	case len(pattern) > maxGlobLen:
		return errors.New("a glob must not be longer than 4096 bytes")
	case strings.HasPrefix(pattern, "/"):
		return errors.New("a glob is relative to the repository's root and must not start with \"/\"")
	case strings.HasSuffix(pattern, "/"):
		return errors.New("a glob must not end with \"/\"")
	}
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "" {
			return errors.New("a glob must not hold an empty segment (\"//\")")
		}
		if _, err := parseSegment(seg); err != nil {
			return fmt.Errorf("segment %q is malformed", seg)
		}
	}
	return nil
}

// HasGlobMeta reports whether pattern holds a wildcard (`*`, `?`, `[`) or an escape.
func HasGlobMeta(pattern string) bool { return strings.ContainsAny(pattern, "*?[\\") }

// globToken is one element of a segment: a character, `?`, `*` or a class.
type globToken struct {
	kind   byte   // 'c' a character, '?' any one, '*' any run, '[' a class
	r      rune   // the character
	neg    bool   // a class `[^…]`
	ranges []rune // a class's ranges, lo and hi in turn
}

var errBadSegment = errors.New("malformed glob segment")

// parseSegment reads one segment of a glob with the grammar of path.Match: `\x` is x,
// a class is `[` then an optional `^` then one or more characters or ranges `lo-hi`
// (`-` and `]` escaped) then `]`.
func parseSegment(seg string) ([]globToken, error) {
	var out []globToken
	esc := func(i int) (rune, int, error) {
		if i >= len(seg) || seg[i] == '-' || seg[i] == ']' {
			return 0, i, errBadSegment
		}
		if seg[i] == '\\' {
			i++
			if i >= len(seg) {
				return 0, i, errBadSegment
			}
		}
		r, w := utf8.DecodeRuneInString(seg[i:])
		if r == utf8.RuneError && w == 1 {
			return 0, i, errBadSegment
		}
		return r, i + w, nil
	}
	for i := 0; i < len(seg); {
		switch seg[i] {
		case '*':
			if len(out) == 0 || out[len(out)-1].kind != '*' {
				out = append(out, globToken{kind: '*'})
			}
			i++
		case '?':
			out = append(out, globToken{kind: '?'})
			i++
		case '[':
			t := globToken{kind: '['}
			i++
			if i < len(seg) && seg[i] == '^' {
				t.neg = true
				i++
			}
			for {
				if i < len(seg) && seg[i] == ']' && len(t.ranges) > 0 {
					i++
					break
				}
				lo, next, err := esc(i)
				if err != nil {
					return nil, err
				}
				hi := lo
				if next < len(seg) && seg[next] == '-' {
					if hi, next, err = esc(next + 1); err != nil {
						return nil, err
					}
				}
				i = next
				t.ranges = append(t.ranges, lo, hi)
			}
			out = append(out, t)
		case '\\':
			i++
			if i >= len(seg) {
				return nil, errBadSegment
			}
			fallthrough
		default:
			r, w := utf8.DecodeRuneInString(seg[i:])
			out = append(out, globToken{kind: 'c', r: r})
			i += w
		}
	}
	return out, nil
}

// matchSegment reports whether the tokens match all of one path segment, rune by rune.
func matchSegment(toks []globToken, seg string) bool {
	name := []rune(seg)
	// at[j] says the tokens read so far can end before name[j]; each token moves it on.
	at := make([]bool, len(name)+1)
	at[0] = true
	for _, t := range toks {
		next := make([]bool, len(name)+1)
		if t.kind == '*' { // from the first place reached on, every place is
			for j, reached := range at {
				if reached {
					for k := j; k <= len(name); k++ {
						next[k] = true
					}
					break
				}
			}
			at = next
			continue
		}
		for j := range at {
			if !at[j] {
				continue
			}
			switch t.kind {
			case '?':
				if j < len(name) {
					next[j+1] = true
				}
			case 'c':
				if j < len(name) && name[j] == t.r {
					next[j+1] = true
				}
			case '[':
				if j < len(name) && t.matches(name[j]) {
					next[j+1] = true
				}
			}
		}
		at = next
	}
	return at[len(name)]
}

func (t globToken) matches(r rune) bool {
	in := false
	for k := 0; k+1 < len(t.ranges); k += 2 {
		if t.ranges[k] <= r && r <= t.ranges[k+1] {
			in = true
			break
		}
	}
	return in != t.neg
}
