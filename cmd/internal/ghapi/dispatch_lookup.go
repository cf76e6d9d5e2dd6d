package ghapi

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
)

// Look-ups for a dispatch whose outcome is unknown: what
// GitHub shows of it, read only while the state holds its intent.

// DispatchedRun is a workflow run as a dispatch's look-up sees it.
type DispatchedRun struct {
	ID      int64
	Title   string // its display title: the workflow's run-name as the run filled it in
	Created time.Time
}

// maxRunPages bounds the pages of runs read for one look-up: a workflow dispatched more
// than that since the dispatch looked for is not read to the end.
const maxRunPages = 3

// DispatchedRuns lists the runs of workflow (a file of .github/workflows) started by a
// workflow_dispatch and created at since or later, newest first; complete is false when
// there were more than maxRunPages pages of them.
// https://docs.github.com/en/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow
func (c *Client) DispatchedRuns(ctx context.Context, workflow string, since time.Time) (runs []DispatchedRun, complete bool, err error) {
	opts := &github.ListWorkflowRunsOptions{Event: "workflow_dispatch", Created: ">=" + since.UTC().Format(time.RFC3339),
		ListOptions: github.ListOptions{PerPage: 100}}
	for page := 0; page < maxRunPages; page++ {
		got, resp, err := c.rest.Actions.ListWorkflowRunsByFileName(ctx, c.Owner, c.Repo, pathSegment(workflow), opts)
		if err != nil {
			return nil, false, fmt.Errorf("listing the runs of workflow %s in %s/%s: %w", workflow, c.Owner, c.Repo, err)
		}
		for _, r := range got.WorkflowRuns {
			runs = append(runs, DispatchedRun{ID: r.GetID(), Title: r.GetDisplayTitle(), Created: r.GetCreatedAt().Time})
		}
		if resp.NextPage == 0 {
			return runs, true, nil
		}
		opts.Page = resp.NextPage
	}
	return runs, false, nil
}

// Assigned reports whether login is assigned to issue or pull request number.
// https://docs.github.com/en/rest/issues/issues#get-an-issue
func (c *Client) Assigned(ctx context.Context, number int, login string) (bool, error) {
	is, _, err := c.rest.Issues.Get(ctx, c.Owner, c.Repo, number)
	if err != nil {
		return false, fmt.Errorf("reading the assignees of %s/%s#%d: %w", c.Owner, c.Repo, number, err)
	}
	for _, a := range is.Assignees {
		if strings.EqualFold(a.GetLogin(), login) {
			return true, nil
		}
	}
	return false, nil
}
