package run

import (
	"strings"
)

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// OneLine keeps a value of the index on its line and in its column, and shows no control
// character (C0 or C1: an escape sequence) to the terminal: whoever can write the branch
// writes the index and the audit.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return '?'
		}
		return r
	}, s)
}
