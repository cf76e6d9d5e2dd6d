package lang

import (
	"path"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestMatchGlob(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"README.md", "README.md", true},
		{"README.md", "docs/README.md", false},
		{"*.md", "README.md", true},
		{"*.md", "docs/README.md", false},
		{"*", ".github", true},
		{"docs/*.md", "docs/a.md", true},
		{"docs/*.md", "docs/sub/a.md", false},
		{"docs/*", "docs", false},
		{"*/auth.go", "src/auth.go", true},
		{"*/auth.go", "src/x/auth.go", false},
		{"src/*/auth/*.go", "src/a/auth/b.go", true},
		{"src/*/auth/*.go", "src/a/b/auth/b.go", false},
		{"**", "a", true},
		{"**", "a/b/c", true},
		{"**/*.go", "main.go", true},
		{"**/*.go", "a/b/main.go", true},
		{"**/*.go", "a/b/main.rs", false},
		{"src/**", "src", true},
		{"src/**", "src/a/b", true},
		{"src/**", "srcx/a", false},
		{"src/**/auth/**", "src/auth", true},
		{"src/**/auth/**", "src/auth/x.go", true},
		{"src/**/auth/**", "src/a/b/auth/c/d.go", true},
		{"src/**/auth/**", "src/a/b/authx/c.go", false},
		{"src/**/auth/**", "lib/auth/c.go", false},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b/**/c", "a/x/y/z/c", false},
		{"a**b", "axxb", true},
		{"a**b", "ax/xb", false},
		{"?.go", "a.go", true},
		{"?.go", "ab.go", false},
		{"?", "/", false},
		{"a?b", "a/b", false},
		{"[abc].go", "b.go", true},
		{"[abc].go", "d.go", false},
		{"[a-c]/x", "b/x", true},
		{"[^a-c]/x", "b/x", false},
		{"[^a-c]/x", "d/x", true},
		{`\*.go`, "*.go", true},
		{`\*.go`, "a.go", false},
		{"[", "[", false},
		{"a/[", "a/[", false},
		{`a\`, `a\`, false},
		{"/a", "/a", false},
		{"a/", "a/", false},
		{"a//b", "a//b", false},
		{"", "", false},
		{"?", "é", true},
		{"*??", "\U000bdf7d", false},
		{"[à-ü]x", "éx", true},
	}
	for _, c := range cases {
		if got := MatchGlob(c.pattern, c.name); got != c.want {
			t.Errorf("MatchGlob(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func TestValidGlob(t *testing.T) {
	for _, ok := range []string{"a", "**", "src/**/auth/**", "[a-z]*.go", `\[x`, "a**b", ".github/*.yml"} {
		if err := ValidGlob(ok); err != nil {
			t.Errorf("ValidGlob(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "/a", "a/", "a//b", "[", "a/[b", `x\`, "[a-", strings.Repeat("a", maxGlobLen+1)} {
		if err := ValidGlob(bad); err == nil {
			t.Errorf("ValidGlob(%q) = nil, want an error", bad)
		}
	}
}

// globRegexp is an independent oracle: the glob as a regular expression over "/" + path,
// each segment of the pattern matching "/" and a segment, `**` any number of those.
func globRegexp(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "**" {
			b.WriteString(`(?:/[^/]*)*`)
			continue
		}
		b.WriteString("/")
		for _, c := range seg {
			switch c {
			case '*':
				b.WriteString(`[^/]*`)
			case '?':
				b.WriteString(`[^/]`)
			default:
				b.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func FuzzMatchGlob(f *testing.F) {
	for _, s := range [][2]string{
		{"src/**/auth/**", "src/a/auth/b"}, {"**/*.go", "a/b.go"}, {"a/*/c", "a/b/c"},
		{"?x", "ax"}, {"[a-c]", "b"}, {"**/**/x", "x"}, {"a**b", "ab"}, {"**", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if len(pattern) > 64 || len(name) > 64 {
			return
		}
		got := MatchGlob(pattern, name)
		if ValidGlob(pattern) != nil {
			if got {
				t.Fatalf("malformed %q matched %q", pattern, name)
			}
			return
		}
		// A single segment without `**` follows path.Match's syntax, and its matching on
		// ASCII names (path.Match's `*` may stop inside a multi-byte character).
		if !strings.Contains(pattern, "/") && pattern != "**" {
			_, perr := path.Match(pattern, "")
			if (perr == nil) != (ValidGlob(pattern) == nil) && pattern != "" {
				t.Fatalf("ValidGlob(%q) = %v; path.Match says %v", pattern, ValidGlob(pattern), perr)
			}
		}
		if !strings.Contains(pattern, "/") && pattern != "**" && isASCII(name) && !strings.Contains(name, "/") {
			want, _ := path.Match(pattern, name)
			if got != want {
				t.Fatalf("MatchGlob(%q, %q) = %v; path.Match says %v", pattern, name, got, want)
			}
		}
		// Without classes or escapes, a regular expression built independently agrees.
		if !strings.ContainsAny(pattern, `[\`) && utf8.ValidString(pattern) && utf8.ValidString(name) {
			if want := globRegexp(pattern).MatchString("/" + name); got != want {
				t.Fatalf("MatchGlob(%q, %q) = %v; the regular expression says %v", pattern, name, got, want)
			}
		}
		// A match never lets `*` or `?` stand for a "/": the pattern has as many segments
		// as the path, unless it holds `**`.
		if got && !strings.Contains(pattern, "**") && strings.Count(pattern, "/") != strings.Count(name, "/") {
			t.Fatalf("MatchGlob(%q, %q): segment counts differ", pattern, name)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Many stars and many `**` take time proportional to the pattern times the path, not
// exponential: the longest pattern against the longest path returns at once.
func TestMatchGlobLong(t *testing.T) {
	name := strings.Repeat("a", 4000)
	pattern := strings.Repeat("*a", 1000) + "b"
	start := time.Now()
	assert.False(t, MatchGlob(pattern, name))
	deep := strings.Repeat("**/", 1000) + "x"
	assert.True(t, MatchGlob(deep, strings.Repeat("d/", 1000)+"x"))
	assert.False(t, MatchGlob(deep, strings.Repeat("d/", 1000)+"y"))
	assert.Less(t, time.Since(start), 5*time.Second)
}
