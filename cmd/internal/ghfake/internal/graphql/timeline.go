package graphql

import (
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// The timeline of a pull request or issue: the events GitHub records on it (labels added
// and removed, reopenings, drafts, base changes), served as timelineItems.

var timelineKinds = []string{"LabeledEvent", "UnlabeledEvent", "BaseRefChangedEvent", "ReopenedEvent", "ReadyForReviewEvent", "ConvertToDraftEvent", "ReviewDismissedEvent"}

// timelineItems is the timelineItems of an issue or a pull request (the IssueTimelineItems
// union holds labels added and removed and reopenings; the fake records those on issues too),
// of the itemTypes asked for.
func timelineItems(_ *executor, p any, a map[string]any) (any, error) {
	is := p.(*world.Issue)
	want := map[string]bool{}
	types, _ := a["itemTypes"].([]any)
	for _, t := range types {
		want[fmt.Sprint(t)] = true
	}
	var items []any
	for _, ev := range is.Timeline {
		if len(want) == 0 || want[world.ItemType(ev.Kind)] {
			items = append(items, ev)
		}
	}
	return paginate("timelineItems", items, a)
}

func timelineResolvers() {
	on("PullRequest", map[string]resolver{"timelineItems": timelineItems})
	on("Issue", map[string]resolver{"timelineItems": timelineItems})
	common := map[string]resolver{
		"id":        value(func(e *world.TimelineEvent) any { return world.NodeID(e.Kind, e.ID) }),
		"actor":     value(func(e *world.TimelineEvent) any { return actorOrNil(e.Actor) }),
		"createdAt": value(func(e *world.TimelineEvent) any { return gqlTime(e.At) }),
	}
	for _, k := range timelineKinds {
		on(k, common)
	}
	labelOf := value(func(e *world.TimelineEvent) any { return label{e.Repo, e.Label} })
	on("LabeledEvent", map[string]resolver{"label": labelOf})
	on("UnlabeledEvent", map[string]resolver{"label": labelOf})
	// https://docs.github.com/en/graphql/reference/objects#reviewdismissedevent
	on("ReviewDismissedEvent", map[string]resolver{
		"review":              value(func(e *world.TimelineEvent) any { return e.Review }),
		"previousReviewState": value(func(e *world.TimelineEvent) any { return e.Previous }),
	})
	on("BaseRefChangedEvent", map[string]resolver{
		"previousRefName": value(func(e *world.TimelineEvent) any { return e.From }),
		"currentRefName":  value(func(e *world.TimelineEvent) any { return e.To }),
	})
}
