package rest

import (
	"net/http"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/perms"
)

// refuseScope answers a REST request whose token lacks the operation's scope as GitHub
// does. An issue that is not a pull request is reached through issues only: the
// pull_requests alternative of the issues/* endpoints holds for pull requests alone. The
// caller holds Mu.
func (s *Env) refuseScope(c *restCtx) (int, any, bool) {
	p := s.Granted(Bearer(c.r))
	if p == nil {
		return 0, nil, false
	}
	n, known := perms.REST[c.op.OperationID]
	if !known {
		s.Note("ghfake: no permission is recorded for " + c.op.OperationID + " (perms.REST)")
		return 0, nil, false
	}
	var drop func(string) bool
	if _, ok := c.params["issue_number"]; ok && c.repo != nil {
		if is := c.issue(false); is != nil && !is.IsPR {
			drop = func(set string) bool { return strings.Contains(set, "pull_requests=") }
		}
	}
	sets := n.Alternatives(drop)
	if perms.Satisfied(p, sets) {
		return 0, nil, false
	}
	c.w.Header().Set("X-Accepted-GitHub-Permissions", strings.Join(sets, "; "))
	return http.StatusForbidden, map[string]any{
		"message":           "Resource not accessible by integration",
		"documentation_url": "https://docs.github.com/rest",
		"status":            "403",
	}, true
}
