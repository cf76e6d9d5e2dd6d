package core

import (
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// LabelAdder returns who added label last and when, as the timeline tells, and whether
// the timeline holds such an event.
func LabelAdder(pr *PullRequest, label string) (string, time.Time, bool) {
	at := pr.Last(TimelineLabeled, label)
	actor, found := "", false
	for _, ev := range pr.Timeline {
		if ev.Kind == TimelineLabeled && lang.SameLabel(ev.Label, label) && ev.At.Equal(at) {
			actor, found = ev.Actor, true
		}
	}
	return actor, at, found
}

// Dismisser returns who last dismissed a review of reviewer and when, as the timeline
// tells.
func Dismisser(pr *PullRequest, reviewer string) (string, time.Time) {
	var last TimelineEvent
	for _, ev := range pr.Timeline {
		if ev.Kind == TimelineReviewDismissed && strings.EqualFold(ev.Label, reviewer) && !ev.At.Before(last.At) {
			last = ev
		}
	}
	return last.Actor, last.At
}
