package ghapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
)

// dispatch starts the agent of a dispatch effect, by its dispatch kind. GitHub's 404 (no
// such workflow at that ref, or no access) cannot pass on a later event either, so it is
// permanent here: the agent stage's on_error applies.
func (c *Client) dispatch(ctx context.Context, e engine.Effect) engine.Outcome {
	var err error
	var runID int64
	switch e.Dispatch {
	case lang.DispatchWorkflow:
		runID, err = c.dispatchWorkflow(ctx, e)
	case lang.DispatchRepositoryDispatch:
		// https://docs.github.com/en/rest/repos/repos#create-a-repository-dispatch-event
		raw, merr := json.Marshal(e.Inputs)
		if merr != nil {
			return engine.Outcome{Key: e.Key, Err: merr.Error(), Permanent: true}
		}
		payload := json.RawMessage(raw)
		_, _, err = c.rest.Repositories.Dispatch(ctx, c.Owner, c.Repo, github.DispatchRequestOptions{EventType: e.EventType, ClientPayload: &payload})
		if err != nil {
			err = fmt.Errorf("sending repository_dispatch %s to %s/%s: %w", e.EventType, c.Owner, c.Repo, err)
		}
	case lang.DispatchComment:
		_, err = c.CreateComment(ctx, e.Number, e.Body+"\n\n"+engine.EffectMarker(e.Key))
	case lang.DispatchLabel:
		err = c.AddLabels(ctx, e.Number, e.Labels)
	case lang.DispatchAssign:
		if err = c.AddAssignees(ctx, e.Number, e.Assignees); errors.As(err, new(*leftOutError)) {
			return engine.Outcome{Key: e.Key, Err: err.Error(), Permanent: true}
		}
	default:
		return engine.Outcome{Key: e.Key, Err: fmt.Sprintf("not supported yet: dispatch %q", e.Dispatch), Permanent: true}
	}
	if err == nil {
		return engine.Outcome{Key: e.Key, WorkflowRun: runID}
	}
	what := "dispatching agent " + e.Agent
	var er *github.ErrorResponse
	msg := err.Error()
	if errors.As(err, &er) && er.Response != nil {
		msg = fmt.Sprintf("%s refused (%d): %s", what, er.Response.StatusCode, er.Message)
		if unanswered(err) {
			msg = fmt.Sprintf("%s: GitHub answered %d (%s)", what, er.Response.StatusCode, er.Message)
		}
		if er.Response.StatusCode == http.StatusNotFound {
			return engine.Outcome{Key: e.Key, Err: msg, Permanent: true}
		}
	}
	return engine.Outcome{Key: e.Key, Err: msg, Permanent: permanent(err), Unknown: unanswered(err)}
}

// dispatchWorkflow sends a workflow_dispatch and returns the id of the workflow run it
// started, which GitHub tells when asked (return_run_details) — only that run may end
// the agent's attempt. A GitHub that answers 204 without
// it (one that predates the parameter) gives 0: the run is then told by its workflow
// file, branch, event and actor alone.
// https://docs.github.com/en/rest/actions/workflows#create-a-workflow-dispatch-event
func (c *Client) dispatchWorkflow(ctx context.Context, e engine.Effect) (int64, error) {
	body := struct {
		Ref              string            `json:"ref"`
		Inputs           map[string]string `json:"inputs,omitempty"`
		ReturnRunDetails bool              `json:"return_run_details"`
	}{e.Ref, e.Inputs, true}
	u := fmt.Sprintf("repos/%s/%s/actions/workflows/%s/dispatches", c.Owner, c.Repo, pathSegment(e.Workflow))
	req, err := c.rest.NewRequest(http.MethodPost, u, body)
	if err != nil {
		return 0, err
	}
	var out struct {
		WorkflowRunID int64 `json:"workflow_run_id"`
	}
	if _, err = c.rest.Do(ctx, req, &out); err != nil { // a 204's empty body decodes to nothing
		return 0, fmt.Errorf("dispatching workflow %s at %s in %s/%s: %w", e.Workflow, e.Ref, c.Owner, c.Repo, err)
	}
	return out.WorkflowRunID, nil
}

// AddAssignees assigns logins to an issue or pull request. GitHub silently leaves out a
// login that cannot be assigned, so the answer is read: a login missing from it is an error.
// https://docs.github.com/en/rest/issues/assignees#add-assignees-to-an-issue
func (c *Client) AddAssignees(ctx context.Context, number int, logins []string) error {
	is, _, err := c.rest.Issues.AddAssignees(ctx, c.Owner, c.Repo, number, logins)
	if err != nil {
		return fmt.Errorf("assigning %s to %s/%s#%d: %w", strings.Join(logins, ", "), c.Owner, c.Repo, number, err)
	}
	for _, l := range logins {
		found := false
		for _, a := range is.Assignees {
			found = found || strings.EqualFold(a.GetLogin(), l)
		}
		if !found {
			return &leftOutError{fmt.Sprintf("assigning %s to %s/%s#%d: GitHub left %s out (it cannot be assigned here)", strings.Join(logins, ", "), c.Owner, c.Repo, number, l)}
		}
	}
	return nil
}

// leftOutError is an assignee GitHub left out: trying again cannot help.
type leftOutError struct{ msg string }

func (e *leftOutError) Error() string { return e.msg }

// DefaultBranch reads the name of the repository's default branch.
// https://docs.github.com/en/rest/repos/repos#get-a-repository
func (c *Client) DefaultBranch(ctx context.Context) (string, error) {
	r, _, err := c.rest.Repositories.Get(ctx, c.Owner, c.Repo)
	if err != nil {
		return "", fmt.Errorf("reading %s/%s: %w", c.Owner, c.Repo, err)
	}
	if r.GetDefaultBranch() == "" {
		return "", fmt.Errorf("reading %s/%s: GitHub names no default branch", c.Owner, c.Repo)
	}
	return r.GetDefaultBranch(), nil
}
