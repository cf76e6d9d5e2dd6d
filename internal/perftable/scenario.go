package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// requestsLine is the last line of simulate --stats: every request of the scenario, and
// those GitHub's secondary limits count as content-creating.
var requestsLine = regexp.MustCompile(`(?m)^\s*(\d+) requests?, (\d+) content-creating`)

// inARowLine is the line after it: the requests one after another, over the steps and in
// the step that made the most.
var inARowLine = regexp.MustCompile(`(?m)^\s*(\d+) in a row over the steps \(the most in one step: (\d+)\)`)

// stepInARow ends the line of a step that made requests: how many went one after another.
var stepInARow = regexp.MustCompile(`(?m)· (\d+) in a row$`)

// scenario plays the scenario directory dir (from the module's root) with simulate
// --stats and returns its requests and content-creating writes, and the writes per
// state change when the row counts its state changes.
func (l *lab) scenario(dir string, changes int) (string, error) {
	out, err := l.simulate(dir)
	if err != nil {
		return "", err
	}
	return parseRequests(out, changes)
}

// parseRequests reads the requests line of simulate --stats.
func parseRequests(out []byte, changes int) (string, error) {
	m := requestsLine.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("simulate --stats printed no requests line:\n%s", out)
	}
	requests, _ := strconv.Atoi(string(m[1]))
	writes, _ := strconv.Atoi(string(m[2]))
	s := fmt.Sprintf("%d requests, %d content-creating", requests, writes)
	if changes > 0 {
		s += fmt.Sprintf(" (%s per state change)", strconv.FormatFloat(float64(writes)/float64(changes), 'f', 1, 64))
	}
	if m := inARowLine.FindSubmatch(out); m != nil {
		var each []string
		for _, step := range stepInARow.FindAllSubmatch(out, -1) {
			each = append(each, string(step[1]))
		}
		by := ""
		if len(each) > 0 {
			by = "by event: " + strings.Join(each, ", ") + "; "
		}
		s += fmt.Sprintf("; %s in a row (%sthe most in one event: %s)", m[1], by, m[2])
	}
	return s, nil
}
