package ghapi

import (
	"context"
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/google/go-github/v60/github"
)

// performAction carries out the effects of the actions beyond merging, labelling and
// commenting; handled is false for a kind it does not know.
func (c *Client) performAction(ctx context.Context, e model.Effect) (err error, handled bool) {
	switch e.Kind {
	case model.EffectLabel:
		if len(e.Labels) > 0 {
			if err := c.AddLabels(ctx, e.Number, e.Labels); err != nil {
				return err, true
			}
		}
		for _, l := range e.Remove {
			if err := c.RemoveLabel(ctx, e.Number, l); err != nil {
				return err, true
			}
		}
		return nil, true
	case model.EffectDequeue:
		return dequeue(ctx, c.gql, c.Owner, c.Repo, e.Number), true
	case model.EffectRerun:
		// https://docs.github.com/rest/actions/workflow-runs#re-run-failed-jobs-from-a-workflow-run
		_, err := c.rest.Actions.RerunFailedJobsByID(ctx, c.Owner, c.Repo, e.RunID)
		if err != nil {
			err = fmt.Errorf("re-running the failed jobs of workflow run %d: %w", e.RunID, err)
		}
		return err, true
	case model.EffectCloseIssue:
		return c.closeIssue(ctx, e.Number), true
	case model.EffectCreateIssue:
		return c.createIssue(ctx, e), true
	case model.EffectRequestReviewers:
		// https://docs.github.com/en/rest/pulls/review-requests#request-reviewers-for-a-pull-request
		req := github.ReviewersRequest{Reviewers: e.Reviewers, TeamReviewers: e.Teams}
		if _, _, err := c.rest.PullRequests.RequestReviewers(ctx, c.Owner, c.Repo, e.Number, req); err != nil {
			return fmt.Errorf("requesting reviews on %s/%s#%d: %w", c.Owner, c.Repo, e.Number, err), true
		}
		return nil, true
	case model.EffectAssign:
		// https://docs.github.com/en/rest/issues/assignees#add-assignees-to-an-issue
		if _, _, err := c.rest.Issues.AddAssignees(ctx, c.Owner, c.Repo, e.Number, e.Assignees); err != nil {
			return fmt.Errorf("assigning %s/%s#%d: %w", c.Owner, c.Repo, e.Number, err), true
		}
		return nil, true
	}
	return nil, false
}

// closeIssue closes issue number as completed. It reads the issue first: a pull request
// is not closed by close_issue, and an issue already closed is done.
// https://docs.github.com/en/rest/issues/issues#get-an-issue
// https://docs.github.com/en/rest/issues/issues#update-an-issue
func (c *Client) closeIssue(ctx context.Context, number int) error {
	is, _, err := c.rest.Issues.Get(ctx, c.Owner, c.Repo, number)
	if err != nil {
		return fmt.Errorf("reading issue %s/%s#%d to close it: %w", c.Owner, c.Repo, number, err)
	}
	if is.IsPullRequest() {
		return fmt.Errorf("closing %s/%s#%d: it is a pull request, not an issue; close_issue closes issues only", c.Owner, c.Repo, number)
	}
	if is.GetState() == "closed" {
		return nil
	}
	closed, reason := "closed", "completed"
	if _, _, err := c.rest.Issues.Edit(ctx, c.Owner, c.Repo, number, &github.IssueRequest{State: &closed, StateReason: &reason}); err != nil {
		return fmt.Errorf("closing issue %s/%s#%d: %w", c.Owner, c.Repo, number, err)
	}
	return nil
}

// createIssue opens an issue whose body carries the effect's marker.
// https://docs.github.com/en/rest/issues/issues#create-an-issue
func (c *Client) createIssue(ctx context.Context, e model.Effect) error {
	body := e.Body + "\n\n" + model.EffectMarker(e.Key)
	req := &github.IssueRequest{Title: &e.Title, Body: &body}
	if len(e.Labels) > 0 {
		labels := append([]string(nil), e.Labels...)
		req.Labels = &labels
	}
	if _, _, err := c.rest.Issues.Create(ctx, c.Owner, c.Repo, req); err != nil {
		return fmt.Errorf("opening an issue in %s/%s: %w", c.Owner, c.Repo, err)
	}
	return nil
}
