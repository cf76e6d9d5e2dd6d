package linkcheck

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// atxHeading is a Markdown heading, # to ######, with its text.
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t]*$`)
	// closingHashes is the optional run of # that closes a heading.
	closingHashes = regexp.MustCompile(`(?:^|[ \t]+)#+[ \t]*$`)
	// setextUnderline turns the line above into a heading.
	setextUnderline = regexp.MustCompile(`^ {0,3}(?:=+|-+)[ \t]*$`)
	// explicitAnchor is an HTML element that names a place: <a id="x">, <a name="x">.
	explicitAnchor = regexp.MustCompile(`(?i)<a\s[^>]*\b(?:id|name)\s*=\s*"([^"]+)"`)
	// image and link render as their text; htmlTag renders as nothing.
	image   = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	link    = regexp.MustCompile(`\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])?`)
	htmlTag = regexp.MustCompile(`<[^>]+>`)
	// lineAnchor is GitHub's anchor of a line, or lines, of a file shown as code.
	lineAnchor = regexp.MustCompile(`^L(\d+)(?:-L(\d+))?$`)
)

// headingText is the text a heading's Markdown renders to: code spans keep their content,
// links and images their text, and emphasis and HTML tags vanish.
func headingText(md string) string {
	var b strings.Builder
	for len(md) > 0 {
		loc := codeSpan.FindStringIndex(md)
		plain := md
		if loc != nil {
			plain = md[:loc[0]]
		}
		plain = image.ReplaceAllString(plain, "$1")
		plain = link.ReplaceAllString(plain, "$1")
		plain = htmlTag.ReplaceAllString(plain, "")
		b.WriteString(strings.ReplaceAll(plain, "*", ""))
		if loc == nil {
			break
		}
		b.WriteString(strings.Trim(md[loc[0]:loc[1]], "` "))
		md = md[loc[1]:]
	}
	return b.String()
}

// slug is the anchor GitHub gives a heading whose Markdown text is md, before duplicates are
// numbered: its rendered text lowercased, every space a hyphen, and every character other than
// a letter, a digit, a mark, a hyphen or an underscore dropped.
func slug(md string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(headingText(md))) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Nl, unicode.No):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors lists the places a Markdown file can be linked to: each heading's slug, the second
// heading of a slug numbered -1, the third -2 and so on, and every explicit <a id> or <a name>.
func anchors(content []byte) map[string]bool {
	out := map[string]bool{}
	add := func(heading string) {
		s := slug(heading)
		name := s
		for n := 1; out[name]; n++ {
			name = s + "-" + strconv.Itoa(n)
		}
		out[name] = true
	}
	lines := strings.Split(string(content), "\n")
	inFence := false
	for i, line := range lines {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range explicitAnchor.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			out[m[1]] = true
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			add(closingHashes.ReplaceAllString(m[1], ""))
		} else if i+1 < len(lines) && setextUnderline.MatchString(lines[i+1]) && isParagraph(line) &&
			(i == 0 || strings.TrimSpace(lines[i-1]) == "") {
			add(line)
		}
	}
	return out
}

// isParagraph says whether a line can be the text of a setext heading: not blank, not a list
// item, a quote, a table row or a thematic break.
func isParagraph(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || strings.HasPrefix(line, "    ") || setextUnderline.MatchString(line) {
		return false
	}
	return !strings.ContainsAny(t[:1], "-*+>|<") && !regexp.MustCompile(`^\d+[.)]\s`).MatchString(t)
}

// markdownLinks lists the link targets of a Markdown file with the lines they are on, outside
// fenced code and code spans.
func markdownLinks(content []byte) (lines []int, targets []string) {
	inFence := false
	for i, line := range strings.Split(string(content), "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		text := codeSpan.ReplaceAllString(line, "")
		for _, re := range []*regexp.Regexp{inlineLink, refLink, htmlLink} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				lines, targets = append(lines, i+1), append(targets, m[1])
			}
		}
	}
	return lines, targets
}

// anchorProblems lists the links of Markdown file rel whose #anchor names no place in the file
// they point at. read returns a repository file's content, false if it is not a file (a missing
// file is the other test's to report).
func anchorProblems(rel string, content []byte, read func(string) ([]byte, bool)) []string {
	var out []string
	lines, targets := markdownLinks(content)
	for i, target := range targets {
		hash := strings.IndexByte(target, '#')
		if hash < 0 || scheme.MatchString(target) || strings.HasPrefix(target, "//") {
			continue
		}
		p, fragment := target[:hash], target[hash+1:]
		if j := strings.IndexByte(p, '?'); j >= 0 {
			p = p[:j]
		}
		if f, err := url.PathUnescape(fragment); err == nil {
			fragment = f
		}
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
		to := rel
		if p != "" {
			base := path.Dir(rel)
			if strings.HasPrefix(p, "/") {
				base, p = ".", strings.TrimLeft(p, "/")
			}
			to = path.Join(base, p)
		}
		at := fmt.Sprintf("%s:%d", rel, lines[i])
		text := content
		if p != "" {
			var ok bool
			if text, ok = read(path.Join(to, "README.md")); ok && !strings.HasSuffix(to, ".md") {
				to = path.Join(to, "README.md") // a folder shows its README
			} else if text, ok = read(to); !ok {
				continue
			}
		}
		if msg := anchorMissing(to, text, fragment); msg != "" {
			out = append(out, fmt.Sprintf("%s: the link %q %s", at, target, msg))
		}
	}
	return out
}

// anchorMissing says what is wrong with #fragment in file to with the given content, or "" if
// the place is there: a heading or an <a id> in Markdown, a line (#L10, #L10-L20) elsewhere.
func anchorMissing(to string, content []byte, fragment string) string {
	if fragment == "" {
		return ""
	}
	if strings.HasSuffix(strings.ToLower(to), ".md") {
		if anchors(content)[fragment] {
			return ""
		}
		return fmt.Sprintf("names #%s, which no heading of %s has", fragment, to)
	}
	m := lineAnchor.FindStringSubmatch(fragment)
	if m == nil {
		return fmt.Sprintf("names #%s in %s, which is not Markdown and has only lines (#L10)", fragment, to)
	}
	n := strings.Count(string(content), "\n") + 1
	for _, s := range m[1:] {
		if l, _ := strconv.Atoi(s); s != "" && (l < 1 || l > n) {
			return fmt.Sprintf("names line %d of %s, which has %d", l, to, n)
		}
	}
	return ""
}

// TestSlug holds slug to anchors GitHub gives headings.
func TestSlug(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"Scenarios for `simulate`", "scenarios-for-simulate"},
		{"`deliver: false`: lost events", "deliver-false-lost-events"},
		{"[Unreleased]", "unreleased"},
		{"6. GITHUB_TOKEN or an app's token", "6-github_token-or-an-apps-token"},
		{"on_complete and on_error lists", "on_complete-and-on_error-lists"},
		{"Shape of `operations.json`", "shape-of-operationsjson"},
		{"Hello, World!", "hello-world"},
		{"A & B", "a--b"},
		{"C++ and C#", "c-and-c"},
		{"1.2.3 (2020-01-01)", "123-2020-01-01"},
		{"**Bold** and *emphasis*", "bold-and-emphasis"},
		{"See [the language](docs/language.md)", "see-the-language"},
		{"`a*b` kept", "ab-kept"},
		{"Über straße", "über-straße"},
		{"🚀 Launch", "-launch"},
		{"What runs? (today)", "what-runs-today"},
		{"Step 1 — trigger", "step-1--trigger"},
		{"<code>x</code> y", "x-y"},
	} {
		assert.Equal(t, tt.want, slug(tt.heading), "%q", tt.heading)
	}
}

// TestAnchors checks the places found in made-up files.
func TestAnchors(t *testing.T) {
	md := "# Title\n\nText\n\n## Usage\n\n## Usage ##\n\n```\n# not a heading\n```\n\nSetext\n------\n\n<a id=\"custom\"></a>\n## Usage\n"
	got := anchors([]byte(md))
	assert.Equal(t, map[string]bool{"title": true, "usage": true, "usage-1": true, "usage-2": true, "setext": true, "custom": true}, got)
}

// TestAnchorProblems checks the detector on made-up files.
func TestAnchorProblems(t *testing.T) {
	files := map[string]string{
		"README.md":            "# Pipeline action\n## Setup\n",
		"docs/a.md":            "# A\n## The `trigger`\n",
		"examples/x/README.md": "# X\n## Scenarios\n",
		"main.go":              "package main\n\nfunc main() {}\n",
	}
	read := func(p string) ([]byte, bool) { s, ok := files[p]; return []byte(s), ok }
	for _, tt := range []struct {
		name, content string
		want          []string
	}{
		{"good", "[a](#a) [t](a.md#the-trigger) [s](../README.md#setup) [x](../examples/x#scenarios) [m](../main.go#L3) [w](https://x.org/#nothing)\n", nil},
		{"same file", "[gone](#gone)\n", []string{`"#gone" names #gone, which no heading of docs/a.md has`}},
		{"other file", "[t](a.md#trigger)\n", []string{`names #trigger, which no heading of docs/a.md has`}},
		{"folder", "[x](../examples/x#usage)\n", []string{`no heading of examples/x/README.md`}},
		{"line past the end", "[m](../main.go#L9)\n", []string{`names line 9 of main.go, which has 4`}},
		{"code", "[m](../main.go#main)\n", []string{`not Markdown`}},
		{"in code", "`[g](#gone)`\n```\n[g](#gone)\n```\n", nil},
		{"missing file is not ours", "[g](gone.md#x)\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := anchorProblems("docs/a.md", []byte("# A\n"+tt.content), read)
			require.Len(t, got, len(tt.want), "%q", got)
			for i, w := range tt.want {
				assert.Contains(t, got[i], w)
			}
		})
	}
}

// TestEveryAnchorResolves reads every Markdown file of the repository outside test data and
// fails on a link whose #anchor names no heading of the file it points at, so that a renamed
// heading cannot leave a reader at the top of a page. (That the file itself is there is
// TestNothingLeavesTheRepository's to check.)
func TestEveryAnchorResolves(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	files := repositoryFiles(t, root)
	read := func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return b, err == nil
	}
	checked := 0
	for _, rel := range files {
		if !strings.HasSuffix(strings.ToLower(rel), ".md") || strings.Contains("/"+rel, "/testdata/") {
			continue
		}
		b, ok := read(rel)
		if !ok {
			continue
		}
		checked++
		for _, p := range anchorProblems(rel, b, read) {
			t.Error(p)
		}
	}
	assert.Greater(t, checked, 30, "the README, docs and examples are read")
}
