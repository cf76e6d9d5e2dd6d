package world

import (
	"strings"
	"time"
)

// TimelineEvent is one recorded event; kind is its GraphQL type (LabeledEvent, ...).
type TimelineEvent struct {
	Repo     *Repo
	ID       int64
	Kind     string
	Actor    string
	Label    string  // LabeledEvent, UnlabeledEvent
	From, To string  // BaseRefChangedEvent: previous and current base
	Review   *Review // ReviewDismissedEvent: the review dismissed
	Previous string  // ReviewDismissedEvent: the review's state before
	At       time.Time
}

// ItemType is the PullRequestTimelineItemsItemType of a kind: LabeledEvent -> LABELED_EVENT.
func ItemType(kind string) string {
	var b strings.Builder
	for i, r := range kind {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}
