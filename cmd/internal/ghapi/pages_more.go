package ghapi

import (
	"context"

	"github.com/shurcooL/githubv4"
)

// The pages of a pull request's timeline before its newest 100 events, and of its closing
// references after the first 10, read when the facts query did not get them all: they are
// rare, and cost nothing when absent.

type timelinePage inRepo[struct {
	PullRequest *struct {
		TimelineItems struct {
			PageInfo pageBackward
			Nodes    []timelineNode
		} `graphql:"timelineItems(last: 100, before: $cursor, itemTypes: [LABELED_EVENT, UNLABELED_EVENT, REOPENED_EVENT, READY_FOR_REVIEW_EVENT, CONVERT_TO_DRAFT_EVENT, BASE_REF_CHANGED_EVENT, REVIEW_DISMISSED_EVENT])"`
	} `graphql:"pullRequest(number: $number)"`
}]

type closingPage inRepo[struct {
	PullRequest *struct {
		ClosingIssuesReferences *closingRefs `graphql:"closingIssuesReferences(first: 100, after: $cursor)"`
	} `graphql:"pullRequest(number: $number)"`
}]

// closingRefs are the issues a pull request closes when merged.
type closingRefs struct {
	PageInfo pageForward
	Nodes    []struct {
		Number     int
		Repository struct{ NameWithOwner string }
	}
}

// readMore completes pr's timeline and closing references where the facts query stopped.
func (c *Client) readMore(ctx context.Context, number int, pr *prFields) error {
	vars := func(cursor string) map[string]any {
		return map[string]any{
			"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo),
			"number": githubv4.Int(number), "cursor": githubv4.String(cursor),
		}
	}
	for page := 0; pr.TimelineItems.PageInfo.HasPreviousPage; page++ {
		var q timelinePage
		if err := c.more(ctx, &q, vars(pr.TimelineItems.PageInfo.StartCursor), page, "timeline events", number); err != nil {
			return err
		}
		if q.Repository.PullRequest == nil {
			break
		}
		got := q.Repository.PullRequest.TimelineItems
		pr.TimelineItems.Nodes = append(got.Nodes, pr.TimelineItems.Nodes...) // older events come first
		pr.TimelineItems.PageInfo = got.PageInfo
	}
	refs := pr.ClosingIssuesReferences
	for page := 0; refs != nil && refs.PageInfo.HasNextPage; page++ {
		var q closingPage
		if err := c.more(ctx, &q, vars(refs.PageInfo.EndCursor), page, "closing references", number); err != nil {
			return err
		}
		if q.Repository.PullRequest == nil || q.Repository.PullRequest.ClosingIssuesReferences == nil {
			break
		}
		got := q.Repository.PullRequest.ClosingIssuesReferences
		refs.Nodes = append(refs.Nodes, got.Nodes...)
		refs.PageInfo = got.PageInfo
	}
	return nil
}
