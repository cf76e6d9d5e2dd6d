package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/google/go-github/v60/github"
	"github.com/shurcooL/githubv4"
)

// GitHub refuses an update of a pull request's branch with 403 for two causes a token's
// scopes do not tell: the branch lives in a fork the token cannot push to (the Actions
// GITHUB_TOKEN reaches only its own repository), or the merge of the base would bring a
// change under .github/workflows/ into the branch, which needs the `workflows` permission.
// Its message for the first is "Resource not accessible by integration", which would read
// as a missing scope the workflow already grants; each is said as what it is, and only a
// person can lift it.

// noHeadPermission is GitHub's refusal to update a fork's branch whose author does not allow
// edits by maintainers (REST's 422, GraphQL's error), whatever the token.
const noHeadPermission = "permission to update head repository"

// updateRefused says why GitHub refused to update e's branch with err, naming the cause
// and the fix; "" for another refusal.
func (c *Client) updateRefused(ctx context.Context, e model.Effect, err error) string {
	msg, forbidden := "", false
	var er *github.ErrorResponse
	var rr *rebaseRefusal
	switch {
	case IsRateLimit(err):
	case errors.As(err, &er) && er.Response != nil:
		msg, forbidden = er.Message, er.Response.StatusCode == http.StatusForbidden
	case errors.As(err, &rr):
		msg, forbidden = rr.err.Error(), rr.forbidden
	}
	if strings.Contains(msg, noHeadPermission) {
		return fmt.Sprintf("updating the branch of #%d refused: its branch lives in a fork whose author does not allow edits by maintainers, "+
			"so GitHub lets no one but the fork's owner push to it: the author brings it up to date, or ticks \"Allow edits by maintainers\" on the pull request", e.Number)
	}
	if !forbidden {
		return ""
	}
	if m := workflowRefusal().FindStringSubmatch(msg); m != nil {
		file := m[1]
		if file == "" {
			file = "a file under .github/workflows/"
		}
		return fmt.Sprintf("updating the branch of #%d refused (403): the update would bring the base branch's change to %s into it, "+
			"and GitHub lets only a token with the `workflows` permission (a GitHub App's or a fine-grained token's; the `workflow` scope of a classic one) "+
			"push such a change, which the Actions GITHUB_TOKEN never has: update the branch by hand, or give the action such a token", e.Number, file)
	}
	pr, _, perr := c.rest.PullRequests.Get(ctx, c.Owner, c.Repo, e.Number)
	if perr != nil || pr.GetHead().GetRepo() == nil || strings.EqualFold(pr.GetHead().GetRepo().GetFullName(), c.Owner+"/"+c.Repo) {
		return ""
	}
	return fmt.Sprintf("updating the branch of #%d refused (403): its branch lives in the fork %s, which the action's token may not push to "+
		"(a workflow's GITHUB_TOKEN reaches only its own repository): the author brings it up to date (\"Update branch\" on the pull request, or a merge of the base pushed to the fork)",
		e.Number, pr.GetHead().GetRepo().GetFullName())
}

// rebaseBranch replays the commits of e's pull request on its base's head, if its head is
// still e.SHA (GraphQL's updatePullRequestBranch; REST updates by merge only).
// https://docs.github.com/graphql/reference/mutations#updatepullrequestbranch
func rebaseBranch(ctx context.Context, gql *githubv4.Client, owner, name string, e model.Effect) error {
	id, err := prNodeID(ctx, gql, owner, name, e.Number)
	if err != nil {
		return err
	}
	var m struct {
		UpdatePullRequestBranch struct {
			ClientMutationID string `graphql:"clientMutationId"`
		} `graphql:"updatePullRequestBranch(input: $input)"`
	}
	rebase := githubv4.PullRequestBranchUpdateMethodRebase
	in := githubv4.UpdatePullRequestBranchInput{PullRequestID: id, UpdateMethod: &rebase}
	if e.SHA != "" {
		head := githubv4.GitObjectID(e.SHA)
		in.ExpectedHeadOid = &head
	}
	err = gql.Mutate(ctx, &m, in, nil)
	switch {
	case err == nil, strings.Contains(err.Error(), "no new commits"):
		return nil
	case strings.Contains(err.Error(), "expected head"):
		return &headMovedError{err}
	}
	err = fmt.Errorf("rebasing the branch of %s/%s#%d: %w", owner, name, e.Number, err)
	msg := err.Error()
	forbidden := strings.Contains(msg, notAccessible) || workflowRefusal().MatchString(msg) || strings.Contains(msg, noHeadPermission)
	if unanswered(err) || IsRateLimit(err) || !forbidden && !strings.Contains(msg, "conflict") && !strings.Contains(msg, "not open") {
		return err // may pass on a later event
	}
	return &rebaseRefusal{err: err, forbidden: forbidden}
}

// rebaseRefusal is GitHub's answer refusing a rebase (a conflict, a branch the token may not
// push to): the same rebase is refused on every event until a person acts.
type rebaseRefusal struct {
	err       error
	forbidden bool // the token may not push it: what a 403 of the REST update says
}

func (r *rebaseRefusal) Error() string { return r.err.Error() }
func (r *rebaseRefusal) Unwrap() error { return r.err }
