package model

import (
	"fmt"
	"strings"
	"time"
)

// SameIdentity reports whether two logins name the same account, as GitHub spells an
// app's bot account in REST ("github-actions[bot]") and in GraphQL ("github-actions").
func SameIdentity(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.TrimSuffix(s, "[bot]")) }
	return a != "" && norm(a) == norm(b)
}

// FormatDuration writes d as the language does: whole days as "2d", else Go's form
// without zero units ("1h30m", "45m").
func FormatDuration(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func Short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
