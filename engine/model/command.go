package model

import (
	"slices"
	"strings"
	"time"
)

const commandPrefix = "/pipeline"

// IsCommand reports whether a comment body is a `/pipeline` command: its first
// non-blank line starts with the word /pipeline.
func IsCommand(body string) bool {
	_, _, ok := ParseCommand(body)
	return ok
}

// ParseCommand returns the verb and argument of a command comment.
func ParseCommand(body string) (verb, arg string, ok bool) {
	line := strings.TrimSpace(body)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != commandPrefix {
		return "", "", false
	}
	if len(f) > 1 {
		verb = strings.ToLower(f[1])
	}
	if len(f) > 2 {
		arg = f[2]
	}
	return verb, arg, true
}

// ReviewKey names one review: its author, the commit it was given on, and when.
func ReviewKey(r Review) string {
	return strings.ToLower(r.Author) + "@" + r.CommitSHA + "@" + r.SubmittedAt.UTC().Format(time.RFC3339Nano)
}

// StaleReview says whether review r was made stale for the stage of sr.
func StaleReview(sr *StageRun, r Review) bool {
	return sr != nil && sr.Stale != nil && slices.Contains(sr.Stale.Reviews, ReviewKey(r))
}
