package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"time"
)

// How a run is stored: the decisions, not what follows from them. The record of a stage
// the run is done with that says nothing more than how it ended, at which attempt and when
// it was entered (a passed gate, a succeeded action) is written with the others alike in
// "done", as its id in a list, rather than as an object of its own in "stages":
//
//	"done": [{"status": "passed", "attempt": 1, "entered_at": "2026-01-05T09:00:00Z", "stages": ["g1", "g2"]}]
//
// so that a run through a thousand gates stores a thousand ids, not a thousand objects.
// Reading puts the records back into Stages: the engine never sees the difference.

// DoneStages is one entry of a stored run's "done": the stages whose records are alike.
type DoneStages struct {
	Status    StageStatus `json:"status"`
	Attempt   int         `json:"attempt"`
	EnteredAt time.Time   `json:"entered_at"`
	Stages    []string    `json:"stages"`
}

// runFields is Run without its methods, for encoding/json.
type runFields Run

// storedRun is a run as it is stored.
type storedRun struct {
	*runFields
	Done []DoneStages `json:"done,omitempty"`
}

// MarshalJSON writes r as it is stored.
func (r Run) MarshalJSON() ([]byte, error) {
	f := runFields(r)
	var done []DoneStages
	for id, sr := range r.Stages {
		if !plainDone(sr) {
			continue
		}
		if len(done) == 0 {
			f.Stages = make(map[string]*StageRun, len(r.Stages))
			for id, sr := range r.Stages {
				if !plainDone(sr) {
					f.Stages[id] = sr
				}
			}
		}
		i := slices.IndexFunc(done, func(d DoneStages) bool {
			return d.Status == sr.Status && d.Attempt == sr.Attempt && d.EnteredAt.Equal(sr.EnteredAt) &&
				d.EnteredAt.Location().String() == sr.EnteredAt.Location().String()
		})
		if i < 0 {
			done = append(done, DoneStages{Status: sr.Status, Attempt: sr.Attempt, EnteredAt: sr.EnteredAt})
			i = len(done) - 1
		}
		done[i].Stages = append(done[i].Stages, id)
	}
	for _, d := range done {
		sort.Strings(d.Stages)
	}
	sort.Slice(done, func(i, j int) bool {
		a, b := done[i], done[j]
		if !a.EnteredAt.Equal(b.EnteredAt) {
			return a.EnteredAt.Before(b.EnteredAt)
		}
		if a.Status != b.Status {
			return a.Status < b.Status
		}
		return a.Attempt < b.Attempt
	})
	return json.Marshal(storedRun{runFields: &f, Done: done})
}

// UnmarshalJSON reads a stored run, strictly: no field it does not know, no stage twice.
func (r *Run) UnmarshalJSON(b []byte) error {
	w := storedRun{runFields: (*runFields)(r)}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return err
	}
	for _, d := range w.Done {
		for _, id := range d.Stages {
			if _, twice := r.Stages[id]; twice {
				return fmt.Errorf("run %q: stage %q is recorded twice", r.ID, id)
			}
			if r.Stages == nil {
				r.Stages = map[string]*StageRun{}
			}
			r.Stages[id] = &StageRun{Status: d.Status, Attempt: d.Attempt, EnteredAt: d.EnteredAt}
		}
	}
	return nil
}

// plainDone reports whether sr is the record of a stage the run is done with that holds
// nothing but its status, attempt and when it was entered.
func plainDone(sr *StageRun) bool {
	if sr == nil {
		return false
	}
	switch sr.Status {
	case StagePassed, StageSucceeded, StageSkipped, StageFailed, StageCancelled:
	default:
		return false
	}
	rest := *sr
	rest.Status, rest.Attempt, rest.EnteredAt = "", 0, time.Time{}
	return reflect.ValueOf(rest).IsZero()
}
