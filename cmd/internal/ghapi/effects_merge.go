package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"

	"github.com/google/go-github/v60/github"
)

// mergeNeedsPerson says what to change when GitHub refused a merge for a setting of the
// repository the pipeline does not meet (the same merge would be refused on every event), ""
// for a refusal that may pass later: mergeability not computed yet, a required check still
// running, the head moved (409), a rate limit.
func mergeNeedsPerson(err error) string {
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || er.Response.StatusCode != http.StatusMethodNotAllowed {
		return ""
	}
	msg := er.Message
	switch {
	case strings.Contains(msg, "are not allowed on this branch"):
		// Required linear history: the branch takes no merge commit, whatever the repository allows.
		return "The base branch requires a linear history, which refuses merge commits: set merge_pr's config.method " +
			"to squash or rebase, or lift the rule's linear history requirement for this branch"
	case strings.Contains(msg, "are not allowed on this repository"):
		return "The repository does not allow this merge method: set merge_pr's config.method to one the repository " +
			"allows (Settings → General → Pull Requests), or allow it there"
	case strings.Contains(msg, "approving review"):
		return "Branch protection requires approving reviews the pipeline did not wait for: add a gate " +
			"(approvals, with the count GitHub requires, from people with write access) before merge_pr, or lower the requirement"
	case strings.Contains(msg, "Waiting on code owner review"):
		return "Branch protection requires a review by the code owners of the changed files (CODEOWNERS), which the " +
			"pipeline did not wait for: have them review, then /pipeline retry; or add a gate before merge_pr " +
			"(human_approved from a group of those code owners)"
	case strings.Contains(msg, "conversation must be resolved"):
		return "Branch protection requires every review conversation to be resolved: resolve them, then /pipeline retry " +
			"(GitHub starts no workflow when a conversation is resolved)"
	case strings.Contains(msg, "not authorized to push to this branch"):
		return "Branch protection restricts who may push to the base branch, and the action's identity is not among them: " +
			"let it push (the GitHub App whose token the action runs with, in the branch's restrictions), or merge the pull request yourself"
	case strings.Contains(msg, "Required status check") && strings.Contains(msg, "is expected"):
		return "Branch protection requires a check that never reported on the head: wait for it with a gate " +
			"(ci_passed naming it) before merge_pr, or fix the required check's name in the branch protection"
	case strings.Contains(msg, "Required status check") && strings.Contains(msg, "is failing"):
		return "A required check failed on the head: the pipeline's gates did not wait for it; add it to a gate before merge_pr"
	}
	return ""
}

// updateBranch brings the pull request's head branch up to date with its base, if its head
// is still e.SHA: a merge of the base's head into it, or with e.Method rebase its commits
// replayed on the base's head. A head already up to date is done.
// https://docs.github.com/en/rest/pulls/pulls#update-a-pull-request-branch
func (c *Client) updateBranch(ctx context.Context, e model.Effect) error {
	if e.Method == lang.UpdateRebase {
		return rebaseBranch(ctx, c.gql, c.Owner, c.Repo, e)
	}
	opts := &github.PullRequestBranchUpdateOptions{}
	if e.SHA != "" {
		opts.ExpectedHeadSHA = github.String(e.SHA)
	}
	_, _, err := c.rest.PullRequests.UpdateBranch(ctx, c.Owner, c.Repo, e.Number, opts)
	var accepted *github.AcceptedError
	var er *github.ErrorResponse
	switch {
	case err == nil || errors.As(err, &accepted):
		return nil // 202: GitHub makes the merge commit
	case errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusUnprocessableEntity &&
		strings.Contains(er.Message, "no new commits"):
		return nil
	case errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusUnprocessableEntity &&
		strings.Contains(er.Message, "expected head sha"):
		// The head moved since the facts were read: the next event sees the new head.
		return &headMovedError{err}
	}
	return fmt.Errorf("updating the branch of %s/%s#%d: %w", c.Owner, c.Repo, e.Number, err)
}

// headMovedError is a refusal because the head moved: not permanent (its 422 is not wrapped).
type headMovedError struct{ err error }

func (h *headMovedError) Error() string {
	return "the head moved before the branch could be updated (" + h.err.Error() + "); the next event sees the new head"
}

// queueRequired reports whether GitHub refused a merge because the base branch takes pull
// requests through its merge queue only.
func queueRequired(err error) bool {
	var er *github.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusMethodNotAllowed &&
		strings.Contains(er.Message, "merge queue")
}
