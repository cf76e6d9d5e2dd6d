package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/google/go-github/v60/github"
)

// GitHub refuses an update of a pull request's branch with 403 for two causes a token's
// scopes do not tell: the branch lives in a fork the token cannot push to (the Actions
// GITHUB_TOKEN reaches only its own repository), or the merge of the base would bring a
// change under .github/workflows/ into the branch, which needs the `workflows` permission.
// Its message for the first is "Resource not accessible by integration", which would read
// as a missing scope the workflow already grants; each is said as what it is, and only a
// person can lift it.

// updateRefused says why GitHub refused to update e's branch with err, naming the cause
// and the fix; "" for another refusal.
func (c *Client) updateRefused(ctx context.Context, e model.Effect, err error) string {
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || er.Response.StatusCode != http.StatusForbidden || IsRateLimit(err) {
		return ""
	}
	if m := workflowRefusal().FindStringSubmatch(er.Message); m != nil {
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
