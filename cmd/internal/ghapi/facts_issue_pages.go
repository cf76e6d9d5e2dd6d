package ghapi

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"
)

// An issue's lists past the first page: its labels after the first 100 and its timeline
// before the newest 100 events are read in full, as a pull request's are; its comments are
// read from both ends in the facts query (the oldest 100, where the state comment is, and
// the newest 100, where commands are), and those between page by page up to maxPages; past
// that the run is told what it could not see.

type issueLabelsPage inRepo[struct {
	Issue *struct {
		Labels struct {
			PageInfo pageForward
			Nodes    []labelNode
		} `graphql:"labels(first: 100, after: $cursor)"`
	} `graphql:"issue(number: $number)"`
}]

type issueTimelinePage inRepo[struct {
	Issue *struct {
		TimelineItems struct {
			PageInfo pageBackward
			Nodes    []issueTimelineNode
		} `graphql:"timelineItems(last: 100, before: $cursor, itemTypes: [LABELED_EVENT, UNLABELED_EVENT, REOPENED_EVENT])"`
	} `graphql:"issue(number: $number)"`
}]

type issueCommentsPage inRepo[struct {
	Issue *struct {
		Comments struct {
			PageInfo pageForward
			Nodes    []commentNode
		} `graphql:"comments(first: 100, after: $cursor)"`
	} `graphql:"issue(number: $number)"`
}]

// readIssueRest completes is's labels, timeline and comments where the facts query
// stopped, and returns what it could not read, for the job log.
func (c *Client) readIssueRest(ctx context.Context, number int, is *issueFields) ([]string, error) {
	vars := func(cursor string) map[string]any {
		return map[string]any{
			"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo),
			"number": githubv4.Int(number), "cursor": githubv4.String(cursor),
		}
	}
	for page := 0; is.Labels.PageInfo.HasNextPage; page++ {
		var q issueLabelsPage
		if err := c.more(ctx, &q, vars(is.Labels.PageInfo.EndCursor), page, "labels", number); err != nil {
			return nil, err
		}
		if q.Repository.Issue == nil {
			break
		}
		is.Labels.Nodes = append(is.Labels.Nodes, q.Repository.Issue.Labels.Nodes...)
		is.Labels.PageInfo = q.Repository.Issue.Labels.PageInfo
	}
	for page := 0; is.TimelineItems.PageInfo.HasPreviousPage; page++ {
		var q issueTimelinePage
		if err := c.more(ctx, &q, vars(is.TimelineItems.PageInfo.StartCursor), page, "timeline events", number); err != nil {
			return nil, err
		}
		if q.Repository.Issue == nil {
			break
		}
		got := q.Repository.Issue.TimelineItems
		is.TimelineItems.Nodes = append(got.Nodes, is.TimelineItems.Nodes...) // older events come first
		is.TimelineItems.PageInfo = got.PageInfo
	}
	return c.readIssueComments(ctx, number, is, vars)
}

// readIssueComments reads the comments between the two pages the facts query read, and
// puts every comment read into is.Comments, oldest first, each once.
func (c *Client) readIssueComments(ctx context.Context, number int, is *issueFields, vars func(string) map[string]any) ([]string, error) {
	var warnings []string
	newest := map[int64]bool{}
	for _, n := range is.Recent.Nodes {
		newest[int64(n.FullDatabaseId)] = true
	}
	first := &is.Comments
	// The pages meet once the oldest ones reach a comment of the newest page.
	met := func() bool { n := len(first.Nodes); return n == 0 || newest[int64(first.Nodes[n-1].FullDatabaseId)] }
	for page := 0; first.PageInfo.HasNextPage && !met(); page++ {
		if page >= maxPages {
			warnings = append(warnings, fmt.Sprintf("#%d has more comments than the oldest %d and the newest 100; those between are not read",
				number, (maxPages+1)*100))
			break
		}
		var q issueCommentsPage
		if err := c.gql.Query(ctx, &q, vars(first.PageInfo.EndCursor)); err != nil {
			return nil, fmt.Errorf("reading more comments of %s/%s#%d: %w", c.Owner, c.Repo, number, err)
		}
		if q.Repository.Issue == nil {
			break
		}
		first.Nodes = append(first.Nodes, q.Repository.Issue.Comments.Nodes...)
		first.PageInfo = q.Repository.Issue.Comments.PageInfo
	}
	seen := map[int64]bool{}
	var all []commentNode
	for _, n := range append(first.Nodes, is.Recent.Nodes...) {
		if id := int64(n.FullDatabaseId); !seen[id] {
			seen[id] = true
			all = append(all, n)
		}
	}
	first.Nodes = all
	return warnings, nil
}
