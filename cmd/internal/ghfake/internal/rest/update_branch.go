package rest

import (
	"fmt"
	"net/http"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/act"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// pullsUpdateBranch: https://docs.github.com/rest/pulls/pulls#update-a-pull-request-branch
// It merges the base branch's head into the head branch with GitHub's signed merge commit.
func pullsUpdateBranch(s *Env, c *restCtx) (int, any) {
	pr := c.issue(true)
	if pr == nil {
		return http.StatusNotFound, NotFound()
	}
	var in struct {
		ExpectedHeadSHA string `json:"expected_head_sha"`
	}
	if len(c.body) > 0 {
		if code, body, ok := c.decode(&in); !ok {
			return code, body
		}
	}
	switch {
	case !world.CanPush(s.PermissionOf(c.login)):
		return http.StatusForbidden, ErrorBody("Resource not accessible by integration")
	case pr.State != "open":
		return http.StatusUnprocessableEntity, ErrorBody("Pull request is not open.")
	case in.ExpectedHeadSHA != "" && in.ExpectedHeadSHA != pr.HeadSHA:
		return http.StatusUnprocessableEntity, ErrorBody("expected head sha didn't match current head ref.")
	case !s.Behind(pr):
		return http.StatusUnprocessableEntity, ErrorBody("There are no new commits on the base branch.")
	case world.MergeableNow(pr) == "CONFLICTING":
		return http.StatusUnprocessableEntity, ErrorBody("merge conflict between base and head")
	case s.UpdateRefusal(c.repo, pr, c.login) != "":
		if msg := s.UpdateRefusal(c.repo, pr, c.login); msg != act.NotAccessibleMessage {
			return http.StatusForbidden, ErrorBody(msg)
		}
		c.w.Header().Set("X-Accepted-GitHub-Permissions", "pull_requests=write")
		return http.StatusForbidden, ErrorBody(act.NotAccessibleMessage)
	}
	s.UpdateBranchOf(c.repo, pr, c.login)
	return http.StatusAccepted, shapes.Obj{"message": "Updating pull request branch.",
		"url": fmt.Sprintf("%s/%s/pull/%d", shapes.HTMLBase, c.repo.FullName(), pr.Number)}
}
