// Package markdown is the one renderer of text the action posts: text that comes from
// GitHub or from whoever opens a pull request is shown inert, so that GitHub renders in it
// no link, image, HTML, mention, reference or emphasis.
package markdown

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The one renderer of text the action posts. Text that comes from GitHub or from whoever
// opens a pull request — a title, a branch, a check's name, an agent's outputs, a
// comment — is shown inert: as it is when it holds nothing Markdown or GitHub would act
// on, else as a code span (or, for text of several lines, a fenced code block), where
// GitHub renders no link, image, HTML, mention (@team), reference (#12) or emphasis. Only
// the config author's literal text is live Markdown. The status comment (state), replies
// to commands, notifications, reminders, dispatch comments and `comment` actions all
// render through it.

// InertInline makes s inert inside a line.
func InertInline(s string) string { return inert(s, false) }

// InertCell makes s inert inside a table cell.
func InertCell(s string) string { return inert(s, true) }

// InertText makes s inert where it stands alone in posted text: inside a line when it is
// one line, else as a fenced code block of its own, its lines kept.
func InertText(s string) string {
	s = strings.Trim(s, "\r\n")
	if !strings.ContainsAny(s, "\r\n") {
		return InertInline(s)
	}
	fence := strings.Repeat("`", max(longestBackticks(s), 2)+1)
	return "\n" + fence + "text\n" + strings.ReplaceAll(s, "<!", "<\u200b!") + "\n" + fence + "\n"
}

func inert(s string, inTable bool) string {
	s = strings.TrimSpace(OneLine(s))
	if s == "" || plain(s) {
		return s
	}
	// In a code span nothing is interpreted, but a table still splits a row at "|"
	// (GitHub's tables take "\|" as a pipe, even in code), and the raw text of the
	// comment must never hold the start of a state marker.
	if inTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	s = strings.ReplaceAll(s, "<!", "<\u200b!")
	return CodeSpan(s)
}

// OneLine replaces line breaks, tabs and other control characters with spaces, and
// drops the characters that reorder text (a right-to-left override would make the
// rest of the line read backwards).
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\u200e' || r == '\u200f' || r == '\u061c' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069'):
			return -1
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, s)
}

// autolinked matches what GitHub turns into a link or a reference by itself, without
// any Markdown: URLs, www. addresses and GH-12 issue references.
var autolinked = regexp.MustCompile(`(?i)://|www\.|gh-[0-9]`)

// plain says whether s can be shown as it is: letters, digits, spaces and punctuation
// that starts nothing in the middle of a line, underscores only inside words, and no
// text GitHub links by itself. Anything else — [ ] ( for links, ! for images, < for
// HTML, @ for mentions, # for references, ` * ~ for code and emphasis, \ and & for
// escapes, $ for math, | for tables — makes it a code span.
func plain(s string) bool {
	if autolinked.MatchString(s) {
		return false
	}
	prev := ' '
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == ' ':
		case strings.ContainsRune(`,.;:'"=+-/()%?!{}^`, r):
		case r == '_':
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if !isWordRune(prev) || !isWordRune(next) {
				return false
			}
		case r > unicode.MaxASCII:
			if unicode.Is(unicode.Cf, r) && r != '\u200d' && r != '\ufe0f' {
				return false // invisible characters, other than the joiners of emoji
			}
		default:
			return false
		}
		prev = r
	}
	return true
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// CodeSpan shows s as one CommonMark code span: its delimiters are a run of backticks
// longer than any in s, and a space pads s when it begins or ends with a backtick (a
// code span drops one space at each end).
func CodeSpan(s string) string {
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestBackticks(s)+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// longestBackticks is the length of the longest run of backticks in s: a code span or
// block is delimited by a longer one.
func longestBackticks(s string) int {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// OneWord keeps a word from a comment harmless in a reply: at most 40 characters of
// letters, digits, '-' and '_'.
func OneWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 40 {
			break
		}
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
