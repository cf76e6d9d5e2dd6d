package ghapi

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"
)

// maxPages bounds the follow-up reads of one connection (100 items each). A subject
// with more is refused rather than judged on part of its facts (fail closed).
const maxPages = 10

type labelsPage inRepo[struct {
	PullRequest *struct {
		Labels struct {
			PageInfo pageForward
			Nodes    []labelNode
		} `graphql:"labels(first: 100, after: $cursor)"`
	} `graphql:"pullRequest(number: $number)"`
}]

type reviewsPage inRepo[struct {
	PullRequest *struct {
		Reviews struct {
			PageInfo pageBackward
			Nodes    []reviewNode
		} `graphql:"reviews(last: 100, before: $cursor)"`
	} `graphql:"pullRequest(number: $number)"`
}]

type commentsPage inRepo[struct {
	PullRequest *struct {
		Comments struct {
			PageInfo pageBackward
			Nodes    []commentNode
		} `graphql:"comments(last: 100, before: $cursor)"`
	} `graphql:"pullRequest(number: $number)"`
}]

type contextsPage inRepo[struct {
	Object *struct {
		Commit struct {
			StatusCheckRollup *struct {
				Contexts struct {
					PageInfo pageForward
					Nodes    []checkContext
				} `graphql:"contexts(first: 100, after: $cursor)"`
			}
		} `graphql:"... on Commit"`
	} `graphql:"object(oid: $sha)"`
}]

// readRest completes pr's labels, reviews and checks where the first read stopped at
// 100. It costs nothing for the usual subject, which has fewer. Comments are read
// otherwise: only back to what the state has read.
func (c *Client) readRest(ctx context.Context, number int, pr *prFields) error {
	vars := func(cursor string) map[string]any {
		return map[string]any{
			"owner": githubv4.String(c.Owner), "name": githubv4.String(c.Repo),
			"number": githubv4.Int(number), "cursor": githubv4.String(cursor),
		}
	}
	for page := 0; pr.Labels.PageInfo.HasNextPage; page++ {
		var q labelsPage
		if err := c.more(ctx, &q, vars(pr.Labels.PageInfo.EndCursor), page, "labels", number); err != nil {
			return err
		}
		if q.Repository.PullRequest == nil {
			break
		}
		pr.Labels.Nodes = append(pr.Labels.Nodes, q.Repository.PullRequest.Labels.Nodes...)
		pr.Labels.PageInfo = q.Repository.PullRequest.Labels.PageInfo
	}
	for page := 0; pr.Reviews.PageInfo.HasPreviousPage; page++ {
		var q reviewsPage
		if err := c.more(ctx, &q, vars(pr.Reviews.PageInfo.StartCursor), page, "reviews", number); err != nil {
			return err
		}
		if q.Repository.PullRequest == nil {
			break
		}
		got := q.Repository.PullRequest.Reviews
		pr.Reviews.Nodes = append(got.Nodes, pr.Reviews.Nodes...) // older reviews come first
		pr.Reviews.PageInfo = got.PageInfo
	}
	if err := c.readContributors(ctx, number, pr); err != nil {
		return err
	}
	if err := c.readMore(ctx, number, pr); err != nil {
		return err
	}
	for i := range pr.Commits.Nodes {
		commit := &pr.Commits.Nodes[i].Commit
		if commit.StatusCheckRollup == nil {
			continue
		}
		contexts := &commit.StatusCheckRollup.Contexts
		for page := 0; contexts.PageInfo.HasNextPage; page++ {
			var q contextsPage
			v := vars(contexts.PageInfo.EndCursor)
			delete(v, "number")
			v["sha"] = githubv4.GitObjectID(commit.Oid)
			if err := c.more(ctx, &q, v, page, "checks", number); err != nil {
				return err
			}
			o := q.Repository.Object
			if o == nil || o.Commit.StatusCheckRollup == nil {
				break
			}
			contexts.Nodes = append(contexts.Nodes, o.Commit.StatusCheckRollup.Contexts.Nodes...)
			contexts.PageInfo = o.Commit.StatusCheckRollup.Contexts.PageInfo
		}
	}
	return nil
}

// more runs one follow-up page query, refusing to go on past maxPages.
func (c *Client) more(ctx context.Context, q any, vars map[string]any, page int, what string, number int) error {
	if page >= maxPages {
		return fmt.Errorf("%s/%s#%d has more than %d %s; not judging it on part of them", c.Owner, c.Repo, number, (maxPages+1)*100, what)
	}
	if err := c.gql.Query(ctx, q, vars); err != nil {
		return fmt.Errorf("reading more %s of %s/%s#%d: %w", what, c.Owner, c.Repo, number, err)
	}
	return nil
}
