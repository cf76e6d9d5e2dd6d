package state

import (
	"encoding/json"
	"fmt"
	"time"
)

// SweepLogFile is the file of the index that records the content writes of the sweeps of
// the last hour, so that the sweeps of any schedule keep together to an hourly budget: each
// sweep is a new invocation, and GitHub's secondary limit counts the writes of an hour.
const SweepLogFile = IndexDir + "/sweeps.json"

const sweepLogVersion = 1

// SweepLog is SweepLogFile: the sweeps of the last hour, oldest first.
type SweepLog struct {
	Version int        `json:"version"`
	Sweeps  []SweepRun `json:"sweeps"`
}

// SweepRun is one sweep that wrote: when it ended, and the content writes it made
// (its own record's commit included).
type SweepRun struct {
	At     time.Time `json:"at"`
	Writes int       `json:"writes"`
}

// DecodeSweepLog reads SweepLogFile, strictly.
func DecodeSweepLog(text string) (*SweepLog, error) {
	var l *SweepLog
	if err := strictJSON(text, &l); err != nil {
		return nil, err
	}
	if l == nil {
		return nil, fmt.Errorf("%s is null", SweepLogFile)
	}
	if l.Version != sweepLogVersion {
		return nil, fmt.Errorf("%s has version %d; this action reads version %d", SweepLogFile, l.Version, sweepLogVersion)
	}
	return l, nil
}

// Spent is the writes of the sweeps of the hour before now, and when the oldest of them
// leaves that hour (zero when none is in it).
func (l *SweepLog) Spent(now time.Time) (writes int, frees time.Time) {
	if l == nil {
		return 0, time.Time{}
	}
	for _, s := range l.Sweeps {
		if now.Sub(s.At) < time.Hour {
			writes += s.Writes
			if frees.IsZero() || s.At.Add(time.Hour).Before(frees) {
				frees = s.At.Add(time.Hour)
			}
		}
	}
	return writes, frees
}

// With returns the log of the hour before now with run added, encoded: older sweeps
// are dropped, so the file stays as small as an hour of sweeps.
func (l *SweepLog) With(run SweepRun, now time.Time) (string, error) {
	out := SweepLog{Version: sweepLogVersion}
	if l != nil {
		for _, s := range l.Sweeps {
			if now.Sub(s.At) < time.Hour {
				out.Sweeps = append(out.Sweeps, s)
			}
		}
	}
	out.Sweeps = append(out.Sweeps, run)
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encoding %s: %w", SweepLogFile, err)
	}
	return string(b) + "\n", nil
}
