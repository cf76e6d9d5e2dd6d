package graphql

import (
	"fmt"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Issues in GraphQL: an issue's timelineItems, as a pull request's (the IssueTimelineItems
// union holds labels added and removed and reopenings; the fake records those on issues too).
func issueTimelineResolvers() {
	on("Issue", map[string]resolver{"timelineItems": func(_ *executor, p any, a map[string]any) (any, error) {
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
	}})
}
