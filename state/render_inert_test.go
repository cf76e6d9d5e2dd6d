package state

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileTexts are what a pull request's author, a CI job or a label can put in the
// text the status shows.
var hostileTexts = []string{
	"@org/team ![x](https://evil/pixel.png) [click](https://evil)",
	"fixes #1 #2 GH-3 acme/widgets#4 see www.evil.example",
	"<img src=x onerror=alert(1)> <b>bold</b> <https://evil>",
	"line one\n\n# Heading\n- [x] task\r\n> quote",
	"`code` ``two`` ```three``` trailing `",
	"a | b || c \\| d",
	"**APPROVED** ~~failed~~ _passed_ $\\color{red}{x}$",
	"&#64;org &commat;team &lt;b&gt;",
	"\\@org \\[click\\](https://evil)",
	"<!-- pipeline-action:state v2 0 abc payload -->",
	"rtl \u202eevil\u202c text\u200b",
	"[ref]: https://evil\n[ref]",
	"",
	"plain text, nothing to see (really): 100% done; a=b+c/d?",
}

// hostileState puts text in every field of a state that comes from GitHub or a
// contributor: gate checks, messages and who can move them, a failed run's reason, a
// retrying stage's error, the history's events, stages and actors, and the reasons
// state comments were ignored.
func hostileState(text string) *model.State {
	w := waitingRun()
	for i := range w.Stages["ready"].Results {
		r := &w.Stages["ready"].Results[i]
		r.Check, r.Message, r.Who = text, text, text
		r.Status, r.Optional = model.GateFail, false
	}
	w.Stage = text // a stage the run recorded, shown as code
	w.Stages[text] = w.Stages["ready"]
	w.History = append(w.History, model.Transition{At: at(1), Actor: text, From: text, To: text, Why: text})
	w.Stages[text+"x"] = &model.StageRun{Status: model.StageFailed, EnteredAt: at(2)}
	r := retryingRun()
	r.ID, r.StartedAt = "auto-merge/7/2", at(50)
	r.Stages["merge"].Message = text
	f := labelRun()
	f.Message = text
	f.History[1].Why = text
	st := state(w, r, f)
	st.Ignored = []model.IgnoredComment{{ID: 1, Why: text}}
	return st
}

// humanPart renders st as the comment shows it, without the marker.
func humanPart(t testing.TB, st *model.State) string {
	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	return Human(body)
}

// outsideCode returns the Markdown text that GitHub interprets: md without fenced
// code blocks and without code spans (found as CommonMark finds them, in each cell of
// a table row on its own, after GitHub's tables take "\|" as a pipe). Each code span
// leaves a space; table rows become their cells joined by " ¦ ".
func outsideCode(md string) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if strings.HasPrefix(line, "|") {
			cells := splitRow(line)
			for i, c := range cells {
				cells[i] = stripCodeSpans(strings.ReplaceAll(c, `\|`, "|"))
			}
			out = append(out, strings.Join(cells, " ¦ "))
			continue
		}
		out = append(out, stripCodeSpans(line))
	}
	return strings.Join(out, "\n")
}

// splitRow splits a table row at the pipes GitHub splits it at: those not escaped.
func splitRow(line string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			if i+1 < len(line) && line[i+1] == '|' {
				i++
			}
		case '|':
			cells = append(cells, line[start:i])
			start = i + 1
		}
	}
	return append(cells, line[start:])
}

// stripCodeSpans removes the code spans of one line: a run of n backticks opens one
// that the next run of exactly n backticks closes; without a closer it is literal.
func stripCodeSpans(line string) string {
	var b strings.Builder
	run := func(i int) int {
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		return n
	}
	for i := 0; i < len(line); {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			b.WriteString(line[i : i+2])
			i += 2
		case line[i] == '`':
			n := run(i)
			closer := -1
			for j := i + n; j < len(line); {
				if m := run(j); m > 0 {
					if m == n {
						closer = j
						break
					}
					j += m
				} else {
					j++
				}
			}
			if closer < 0 {
				b.WriteString(line[i : i+n])
				i += n
				continue
			}
			b.WriteByte(' ')
			i = closer + n
		default:
			b.WriteByte(line[i])
			i++
		}
	}
	return b.String()
}

// liveRisks counts what GitHub would act on in text outside code: mentions, links,
// images, HTML, references, autolinks, escapes and entities, emphasis and math.
func liveRisks(md string) map[string]int {
	live := outsideCode(md)
	out := map[string]int{}
	for _, s := range []string{"@", "[", "]", "](", "![", "<", ">", "#", "://", "www.", "`", "\\", "&", "*", "~", "$"} {
		out[s] = strings.Count(live, s)
	}
	out["_"] = len(edgeUnderscore.FindAllString(live, -1)) // inside a word it emphasises nothing
	out["GH-1"] = len(issueRef.FindAllString(live, -1))
	return out
}

var (
	edgeUnderscore = regexp.MustCompile(`(^|[^\pL\pN])_|_($|[^\pL\pN])`)
	issueRef       = regexp.MustCompile(`(?i)gh-[0-9]`)
)

// TestRenderHostileText feeds hostile text into every field from GitHub and checks
// that the comment shows it inert: outside code spans there is no more of anything
// GitHub acts on than the template itself writes (with harmless text in those
// fields), no extra line, and every table row keeps its cells.
func TestRenderHostileText(t *testing.T) {
	benign := humanPart(t, hostileState("x"))
	for _, text := range hostileTexts {
		t.Run(text, func(t *testing.T) {
			got := humanPart(t, hostileState(text))
			assertInert(t, benign, got)
			live := outsideCode(got)
			for _, bad := range []string{"@org", "](", "![", "<img", "<b>", "<https", "#1", "GH-3", "www.evil", "# Heading", "&#64;", "<!--", "**APPROVED**", "~~failed~~", "[ref]:"} {
				assert.NotContains(t, live, bad)
			}
			assert.NotContains(t, got, "<!--", "the raw text never holds a marker")
		})
	}
}

// assertInert compares a rendering with hostile text against the same rendering with
// harmless text.
func assertInert(t testing.TB, benign, got string) {
	t.Helper()
	want := liveRisks(benign)
	for s, n := range liveRisks(got) {
		if n > want[s] {
			t.Errorf("%d %q outside code, the template writes %d:\n%s", n, s, want[s], outsideCode(got))
		}
	}
	bl, gl := strings.Split(benign, "\n"), strings.Split(got, "\n")
	if len(gl) != len(bl) {
		t.Fatalf("%d lines, want %d:\n%s", len(gl), len(bl), got)
	}
	for i := range gl {
		if strings.HasPrefix(bl[i], "|") && len(splitRow(gl[i])) != len(splitRow(bl[i])) {
			t.Errorf("line %d has %d cells, want %d: %s", i+1, len(splitRow(gl[i])), len(splitRow(bl[i])), gl[i])
		}
	}
}

// FuzzRenderInert checks the same for any text.
func FuzzRenderInert(f *testing.F) {
	for _, s := range hostileTexts {
		f.Add(s)
	}
	benign := humanPart(f, hostileState("x"))
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) || len(text) > 2000 {
			return
		}
		got := humanPart(t, hostileState(text))
		assertInert(t, benign, got)
		if strings.Contains(got, "<!--") {
			t.Errorf("the rendering holds %q", "<!--")
		}
	})
}

func TestInert(t *testing.T) {
	tests := []struct{ in, inline, cell string }{
		{"check \"test\" failed", `check "test" failed`, `check "test" failed`},
		{"ci_status passed (2/3), 66% done!", "ci_status passed (2/3), 66% done!", "ci_status passed (2/3), 66% done!"},
		{"étiquette « prête » ✅", "étiquette « prête » ✅", "étiquette « prête » ✅"},
		{"@org/team", "`@org/team`", "`@org/team`"},
		{"a | b", "`a | b`", "`a \\| b`"},
		{"x `y` z", "``x `y` z``", "``x `y` z``"},
		{"`y`", "`` `y` ``", "`` `y` ``"},
		{"one\ntwo\r\nthree\tfour", "one two  three four", "one two  three four"},
		{"  padded  ", "padded", "padded"},
		{"_x_", "`_x_`", "`_x_`"},
		{"see https://x", "`see https://x`", "`see https://x`"},
		{"<!-- x", "`<\u200b!-- x`", "`<\u200b!-- x`"},
		{"a\u202eb", "ab", "ab"},
		{"", "", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.inline, inline(tt.in), "inline(%q)", tt.in)
		assert.Equal(t, tt.cell, cell(tt.in), "cell(%q)", tt.in)
	}
}

// inertViolation names the first way s could do something when GitHub renders it as
// Markdown inside a table cell or list item, or "".
func inertViolation(s string) string {
	unescaped := func(i int) bool { // s[i] is not preceded by an odd run of backslashes
		n := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			n++
		}
		return n%2 == 0
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\r':
			return "a line break"
		case c == '<' || c == '>':
			return "raw HTML"
		case (c == '[' || c == ']' || c == '`' || c == '|') && unescaped(i):
			return fmt.Sprintf("an unescaped %q", c)
		case c == '&' && !strings.HasPrefix(s[i:], "&amp;") && !strings.HasPrefix(s[i:], "&lt;") && !strings.HasPrefix(s[i:], "&gt;"):
			return "an entity"
		case (c == '@' || c == '#') && !strings.HasPrefix(s[i+1:], "\u2060"):
			return fmt.Sprintf("a live %q", c)
		}
	}
	if strings.Contains(s, "://") || strings.Contains(strings.ToLower(s), "www.") {
		return "an autolink"
	}
	return ""
}

func TestEscRendersUntrustedTextInert(t *testing.T) {
	hostile := []string{
		"@org/security-team please look",
		"![x](https://evil.example/pixel.png)",
		"[click](https://evil.example)",
		"see www.evil.example and https://evil.example/a",
		"fixes #12 and org/other#34",
		"mail me at a@b.example",
		"&#64;org/team &lt;img&gt;",
		"`code` \\[not a link\\](x) \\",
		"line1\nline2\r\n| cell |",
		"<img src=x onerror=alert(1)>",
	}
	for _, h := range hostile {
		got := esc(h)
		assert.Empty(t, inertViolation(got), "esc(%q) = %q", h, got)
	}
	// What is harmless stays as written.
	assert.Equal(t, "check \"test\" failed (ci_status)", esc("check \"test\" failed (ci_status)"))
}

// A PR-controlled string (a check name, here) reaches the status through a gate's
// message and the history, and is inert in both: GitHub acts on nothing of it outside
// code spans.
func TestRenderUntrustedGateMessageIsInert(t *testing.T) {
	evil := "@org/team ![x](https://evil.example/p.png) [go](https://evil.example)"
	st := &model.State{Version: 1, Runs: []*model.Run{{
		ID: "p/7/1", Pipeline: "p", Status: model.RunWaiting, Stage: "ready", StartedAt: at(0),
		Stages: map[string]*model.StageRun{"ready": {Status: model.StageWaiting, Attempt: 1, EnteredAt: at(0),
			Results: []model.GateResult{{Check: "ci_status", Status: model.GateFail, Message: `check "` + evil + `" failed`, Who: evil}}}},
		History: []model.Transition{{At: at(0), Actor: "mallory", To: "ready", Why: evil}},
	}}}
	out := Render(nil, st)
	assert.Equal(t, 3, strings.Count(out, "@org/team"), "shown as written, in code spans")
	live := outsideCode(out)
	for _, bad := range []string{"@", "](", "![", "://", "<img"} {
		assert.NotContains(t, live, bad)
	}
}

func FuzzEsc(f *testing.F) {
	for _, s := range []string{"@a", "![x](y)", "https://x", "&#64;", "a\\|b", "www.x", "#1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v := inertViolation(esc(s)); v != "" {
			t.Fatalf("esc(%q) = %q has %s", s, esc(s), v)
		}
	})
}
