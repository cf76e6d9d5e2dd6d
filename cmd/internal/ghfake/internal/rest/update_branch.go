package rest

import (
	"fmt"
	"net/http"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/act"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
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
	if code, msg := s.UpdateCheck(c.repo, pr, c.login, in.ExpectedHeadSHA); code != 0 {
		if msg == act.NotAccessibleMessage {
			c.w.Header().Set("X-Accepted-GitHub-Permissions", "pull_requests=write")
		}
		return code, ErrorBody(msg)
	}
	s.UpdateBranchOf(c.repo, pr, c.login)
	return http.StatusAccepted, shapes.Obj{"message": "Updating pull request branch.",
		"url": fmt.Sprintf("%s/%s/pull/%d", shapes.HTMLBase, c.repo.FullName(), pr.Number)}
}
