package world

import (
	"fmt"
	"strings"
)

// ClaimNumber returns n, or, when n is 0, one more than the highest number so far (as GitHub
// numbers them); a taken number panics. PRs and issues share the number space. The caller
// holds Mu.
func (s *World) ClaimNumber(r *Repo, n int) int {
	if n == 0 {
		// GitHub numbers issues and pull requests one after the highest so far.
		for k := range r.Issues {
			n = max(n, k)
		}
		n++
	}
	if r.Issues[n] != nil {
		panic(fmt.Sprintf("ghfake: %s#%d already exists", r.FullName(), n))
	}
	return n
}

// AddComment records a comment. The caller holds Mu.
func (s *World) AddComment(r *Repo, is *Issue, user, body string) *Comment {
	now := s.Clock()
	c := &Comment{ID: s.NewBigID(), Issue: is.Number, Author: user, Body: body, CreatedAt: now, UpdatedAt: now}
	r.Comments = append(r.Comments, c)
	is.UpdatedAt = now
	return c
}

// SetMergeable sets the pull request's mergeable state: MERGEABLE, CONFLICTING or UNKNOWN (any
// case). GitHub sends no event for it.
func (s *World) SetMergeable(repoName string, number int, state string) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	st := strings.ToUpper(state)
	switch st {
	case "MERGEABLE", "CONFLICTING", "UNKNOWN":
	default:
		panic(fmt.Sprintf("ghfake: mergeable state %q is not MERGEABLE, CONFLICTING or UNKNOWN", state))
	}
	s.MustPR(s.MustRepo(repoName), number).Mergeable = st
}

// SuiteOf returns the check suite of app (and, for Actions, of workflow's run) on commit c,
// creating it on first use. The caller holds Mu.
func (s *World) SuiteOf(c *Commit, app, workflow string) *CheckSuite {
	for _, cs := range c.Suites {
		if cs.App == app && cs.Workflow == workflow {
			return cs
		}
	}
	cs := &CheckSuite{Repo: c.Repo, ID: s.NewBigID(), App: app, Workflow: workflow}
	if workflow != "" {
		cs.RunID = s.NewBigID()
	}
	c.Suites = append(c.Suites, cs)
	return cs
}

// AddStatus records a commit status. The caller holds Mu.
func (s *World) AddStatus(c *Commit, context, state string) *Status {
	st := &Status{ID: s.NewID(), Context: context, State: state, CreatedAt: s.Clock()}
	c.Statuses = append(c.Statuses, st)
	return st
}

// Record adds an event to the timeline. The caller holds Mu.
func (s *World) Record(is *Issue, kind, actor string, set func(*TimelineEvent)) {
	// Event ids come from their own sequence, so that comment ids stay as tests expect.
	id := int64(StableID(fmt.Sprintf("%s#%d/%d", is.Repo.FullName(), is.Number, len(is.Timeline))))
	ev := &TimelineEvent{Repo: is.Repo, ID: id, Kind: kind, Actor: actor, At: s.Clock()}
	if set != nil {
		set(ev)
	}
	is.Timeline = append(is.Timeline, ev)
}

// Relabel sets the labels of is and records a LabeledEvent or UnlabeledEvent for each
// label added or removed (names compare case-insensitively, as GitHub's do). The caller
// holds Mu.
func (s *World) Relabel(is *Issue, labels []string, actor string) {
	for _, l := range is.Labels {
		if _, still := LabelDel(labels, l); still == "" {
			name := l
			s.Record(is, "UnlabeledEvent", actor, func(e *TimelineEvent) { e.Label = name })
		}
	}
	for _, l := range labels {
		if _, had := LabelDel(is.Labels, l); had == "" {
			name := l
			s.Record(is, "LabeledEvent", actor, func(e *TimelineEvent) { e.Label = name })
		}
	}
	is.Labels = labels
}
