package state

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// RetryFile is the file of the index that lists the subjects whose event GitHub's rate limit
// kept the action from handling: their runs stay as they were, and the first sweep after the
// limit ends evaluates them as that event would have, so that no transition waits for an
// event that may never come. It is written through REST, whose budget is GitHub's other one,
// when GraphQL's is spent.
const RetryFile = IndexDir + "/retry.json"

const retryListVersion = 1

// RetryList is RetryFile.
type RetryList struct {
	Version  int            `json:"version"`
	Subjects []RetrySubject `json:"subjects"`
}

// RetrySubject is one subject to evaluate once At has passed.
type RetrySubject struct {
	Number int       `json:"number"`
	Issue  bool      `json:"issue,omitempty"`
	At     time.Time `json:"at"`
}

// DecodeRetryList reads RetryFile, strictly.
func DecodeRetryList(text string) (*RetryList, error) {
	var l *RetryList
	if err := strictJSON(text, &l); err != nil {
		return nil, err
	}
	if l == nil || l.Version != retryListVersion {
		return nil, fmt.Errorf("%s is not version %d", RetryFile, retryListVersion)
	}
	return l, nil
}

// With returns the list with s in it, encoded: a subject listed already keeps the later
// of the two times.
func (l *RetryList) With(s RetrySubject) (string, error) {
	out := RetryList{Version: retryListVersion}
	if l != nil {
		out.Subjects = slices.Clone(l.Subjects)
	}
	i := slices.IndexFunc(out.Subjects, func(x RetrySubject) bool { return x.Number == s.Number && x.Issue == s.Issue })
	switch {
	case i < 0:
		out.Subjects = append(out.Subjects, s)
	case s.At.After(out.Subjects[i].At):
		out.Subjects[i].At = s.At
	}
	return out.encode()
}

// Without returns the list without the subjects done lists, encoded; "" when none is left
// (the file is deleted).
func (l *RetryList) Without(done func(RetrySubject) bool) (string, error) {
	out := RetryList{Version: retryListVersion}
	if l != nil {
		for _, s := range l.Subjects {
			if !done(s) {
				out.Subjects = append(out.Subjects, s)
			}
		}
	}
	if len(out.Subjects) == 0 {
		return "", nil
	}
	return out.encode()
}

func (l RetryList) encode() (string, error) {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encoding %s: %w", RetryFile, err)
	}
	return string(b) + "\n", nil
}
