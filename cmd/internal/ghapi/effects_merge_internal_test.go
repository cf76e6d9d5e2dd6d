package ghapi

import (
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
	"github.com/stretchr/testify/assert"
)

func TestMergeNeedsPersonOnlyForSettings(t *testing.T) {
	refusal := func(code int, msg string) error {
		return &github.ErrorResponse{Response: &http.Response{StatusCode: code}, Message: msg}
	}
	temporary := []error{
		refusal(405, "Pull Request is not mergeable"),
		refusal(405, `Required status check "test" is in progress.`),
		refusal(409, "Head branch was modified. Review and try the merge again."),
		refusal(405, "Head branch is not up to date with the base branch"),
		refusal(502, "Server Error"),
	}
	for _, err := range temporary {
		assert.Empty(t, mergeNeedsPerson(err), err.Error())
	}
	assert.True(t, queueRequired(refusal(405, "Changes must be made through the merge queue")), "enqueued instead")
	assert.False(t, queueRequired(refusal(405, "Pull Request is not mergeable")))
	permanent := []error{
		refusal(405, "Rebase merges are not allowed on this repository."),
		refusal(405, "At least 2 approving reviews are required by reviewers with write access."),
		refusal(405, `Required status check "build" is expected.`),
		refusal(405, `Required status check "build" is failing.`),
		refusal(405, "Waiting on code owner review from carol."),
		refusal(405, "Merge commits are not allowed on this branch."),
		refusal(405, "A conversation must be resolved before this pull request can be merged."),
		refusal(405, "You're not authorized to push to this branch. Visit https://docs.github.com/articles/about-protected-branches for more information."),
	}
	for _, err := range permanent {
		assert.NotEmpty(t, mergeNeedsPerson(err), err.Error())
	}
}
