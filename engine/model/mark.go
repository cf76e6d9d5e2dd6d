package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// RunMark is what a subject's state keeps of a pipeline's runs once their records left
// State.Past: what must outlive any window of records. Number is the highest run number
// handed out (a run id is never used twice); At is when the newest run the trigger
// started (no sub-pipeline's run) was triggered, or started when it names no trigger time
// (a level trigger does not start again for what it already ran for), zero for none; Key
// is the trigger key of the newest run that left (a re-run of the delivery that last
// started the pipeline starts nothing).
type RunMark struct {
	Number int
	At     time.Time
	Key    string
}

// MarshalText writes m as "<number>[@<RFC 3339 instant>][#<key>]": a few tens of bytes,
// whatever the runs it stands for.
func (m RunMark) MarshalText() ([]byte, error) {
	s := strconv.Itoa(m.Number)
	if !m.At.IsZero() {
		s += "@" + m.At.UTC().Format(time.RFC3339Nano)
	}
	if m.Key != "" {
		s += "#" + m.Key
	}
	return []byte(s), nil
}

// UnmarshalText reads what MarshalText writes. The key comes last: it may hold any
// character, the number and the instant hold no "#".
func (m *RunMark) UnmarshalText(b []byte) error {
	head, key, _ := strings.Cut(string(b), "#")
	num, at, found := strings.Cut(head, "@")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return fmt.Errorf("run mark %q: not <number>[@<time>][#<key>]", b)
	}
	out := RunMark{Number: n, Key: key}
	if found {
		if out.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return fmt.Errorf("run mark %q: %w", b, err)
		}
	}
	*m = out
	return nil
}

// Fold returns m raised to hold p too, p newer than the records m holds.
func (m RunMark) Fold(p PastRun) RunMark {
	if n := RunNumber(p.ID); n > m.Number {
		m.Number = n
	}
	if p.TriggerKey != "" {
		m.Key = p.TriggerKey
	}
	if p.Parent == "" {
		at := p.TriggerAt
		if at.IsZero() {
			at = p.StartedAt
		}
		if at.After(m.At) {
			m.At = at
		}
	}
	return m
}
