package engine

import (
	"fmt"
	"strings"
)

// A human stage's `from` with `wait_for: label` or `dismiss`: what the stage waits for
// counts only when a member of the group did it, as the pull request's timeline tells —
// the actor of the latest LabeledEvent of the label, the actor of the latest
// ReviewDismissedEvent of a review. The pull request's author and the action itself never
// count, as for approvals. Who did it unknown (the event is older than the timeline read,
// or GitHub names no actor) does not count either.

// labelAdder returns who added label last, as the timeline tells, and whether the
// timeline holds such an event.
func labelAdder(pr *PullRequest, label string) (string, bool) {
	at := pr.Last(TimelineLabeled, label)
	actor, found := "", false
	for _, ev := range pr.Timeline {
		if ev.Kind == TimelineLabeled && SameLabel(ev.Label, label) && ev.At.Equal(at) {
			actor, found = ev.Actor, true
		}
	}
	return actor, found
}

// dismisser returns who last dismissed a review of reviewer, as the timeline tells.
func dismisser(pr *PullRequest, reviewer string) string {
	actor := ""
	var last TimelineEvent
	for _, ev := range pr.Timeline {
		if ev.Kind == TimelineReviewDismissed && strings.EqualFold(ev.Label, reviewer) && !ev.At.Before(last.At) {
			last, actor = ev, ev.Actor
		}
	}
	return actor
}

// humanLabelFrom counts a label that a member of the stage's group added.
func (e *eval) humanLabelFrom(run *Run, stage *Stage, add func(string)) (notes []string) {
	l, ok := e.facts.PR.Label(stage.WaitLabel)
	if !ok {
		return nil
	}
	by, found := labelAdder(e.facts.PR, l)
	switch {
	case !found || by == "":
		return []string{fmt.Sprintf("who added the label %s is not known (the timeline read does not show it)", l)}
	case !e.allowed(run, stage, by, false):
		return []string{fmt.Sprintf("the label %s was added by %s, who does not count here", l, by)}
	}
	add(fmt.Sprintf("label %s added by %s", l, by))
	return nil
}

// humanDismissFrom counts a dismissal by a member of the stage's group, once no review
// still requests changes.
func (e *eval) humanDismissFrom(run *Run, stage *Stage, add func(string)) (notes []string) {
	blocked := false
	var dismissed []string
	for _, r := range latestReviews(e.facts.PR.Reviews) {
		switch r.State {
		case ReviewChangesRequested:
			blocked = true
		case ReviewDismissed:
			dismissed = append(dismissed, r.Author)
		}
	}
	if blocked {
		return nil
	}
	for _, reviewer := range dismissed {
		by := dismisser(e.facts.PR, reviewer)
		switch {
		case by == "":
			notes = append(notes, fmt.Sprintf("who dismissed the review of %s is not known", reviewer))
		case !e.allowed(run, stage, by, false):
			notes = append(notes, fmt.Sprintf("the review of %s was dismissed by %s, who does not count here", reviewer, by))
		default:
			add(fmt.Sprintf("the review of %s dismissed by %s", reviewer, by))
			return nil
		}
	}
	return notes
}

// humanFromActors returns who did what a `from` stage waiting for a label or a dismissal
// waits for, for reading the teams of its group (PeopleNeeded).
func humanFromActors(s *Stage, pr *PullRequest) []string {
	var who []string
	switch s.WaitFor {
	case WaitLabel:
		if l, ok := pr.Label(s.WaitLabel); ok {
			if by, _ := labelAdder(pr, l); by != "" {
				who = append(who, by)
			}
		}
	case WaitDismiss:
		for _, r := range latestReviews(pr.Reviews) {
			if r.State == ReviewDismissed {
				if by := dismisser(pr, r.Author); by != "" {
					who = append(who, by)
				}
			}
		}
	}
	return who
}
