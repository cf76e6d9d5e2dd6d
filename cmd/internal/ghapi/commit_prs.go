package ghapi

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/shurcooL/githubv4"
)

// Which open pull requests a commit event (a check, a status, a workflow run) is about.

type commitPRsQuery inRepo[struct {
	Object *struct {
		Commit struct {
			AssociatedPullRequests struct {
				Nodes []struct {
					Number     int
					State      string
					HeadRefOid string
				}
			} `graphql:"associatedPullRequests(first: 10)"`
		} `graphql:"... on Commit"`
	} `graphql:"object(oid: $sha)"`
	PullRequests struct {
		Nodes []struct {
			Number            int
			HeadRefName       string
			HeadRefOid        string
			IsCrossRepository bool
			HeadRepository    *struct {
				NameWithOwner string
			}
		}
	} `graphql:"pullRequests(states: OPEN, headRefName: $branch, first: $first, orderBy: {field: UPDATED_AT, direction: DESC})"`
}]

// CommitHead is where a commit event says its commit is the head: the repository
// ("owner/name") and branch, each "" when the event does not say.
type CommitHead struct {
	Repo, Branch string
}

// OpenPRsForCommit returns the open pull requests whose head is sha, for events
// (workflow runs, check suites, commit statuses) that name a commit rather than a pull
// request. GitHub associates a commit with pull requests only in the repository that holds
// it, so a fork's head commit is associated with none here; the same query reads the open
// pull requests of the head's branch (the most recently updated, of any branch when the
// event names none) and keeps those whose head is sha in the head's repository.
// https://docs.github.com/en/graphql/reference/objects#commit
func (c *Client) OpenPRsForCommit(ctx context.Context, sha string, head CommitHead) ([]int, error) {
	var q commitPRsQuery
	first := 50 // no branch: the recently updated open PRs, among which a fork's CI lands
	var branch *githubv4.String
	if head.Branch != "" {
		branch, first = githubv4.NewString(githubv4.String(head.Branch)), 20
	}
	vars := map[string]any{
		"owner":  githubv4.String(c.Owner),
		"name":   githubv4.String(c.Repo),
		"sha":    githubv4.GitObjectID(sha),
		"branch": branch,
		"first":  githubv4.Int(first),
	}
	if err := c.gql.Query(ctx, &q, vars); err != nil {
		return nil, fmt.Errorf("finding pull requests of %s in %s/%s: %w", sha, c.Owner, c.Repo, err)
	}
	var out []int
	if q.Repository.Object != nil {
		for _, n := range q.Repository.Object.Commit.AssociatedPullRequests.Nodes {
			if n.State == "OPEN" && n.HeadRefOid == sha {
				out = append(out, n.Number)
			}
		}
	}
	for _, n := range q.Repository.PullRequests.Nodes {
		// A same-repository PR is associated above; a fork's is found only here, and only
		// in the head's repository when the event names it (another fork may have a branch
		// of the same name).
		if n.HeadRefOid != sha || !n.IsCrossRepository || slices.Contains(out, n.Number) {
			continue
		}
		if head.Repo != "" && (n.HeadRepository == nil || !strings.EqualFold(n.HeadRepository.NameWithOwner, head.Repo)) {
			continue
		}
		out = append(out, n.Number)
	}
	return out, nil
}
