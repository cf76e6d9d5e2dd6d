package ghfake

import (
	"net/http"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/perms"
)

// Token permissions. A GitHub App installation token (a workflow's GITHUB_TOKEN is one)
// carries scopes, each none, read or write: a workflow's `permissions:` block sets every
// scope it leaves out to none. GitHub refuses a REST endpoint whose scope the token lacks
// with 403 "Resource not accessible by integration" and an X-Accepted-GitHub-Permissions
// header naming what it needs, and answers a GraphQL field it may not show with null and a
// FORBIDDEN error at its path (the rest of the answer stands). By default a token has every
// scope (Grant restricts one); the requirements are data: perms.REST and
// perms.GraphQL.

// Permissions are a token's scopes by GitHub App permission name (pull_requests, not the
// workflow's pull-requests) → "read" or "write"; a scope not named is none. metadata is
// always read, as for every installation token.
type Permissions = perms.Permissions

// need is a requirement as GitHub writes it in X-Accepted-GitHub-Permissions.
type need = perms.Need

// refuseScope answers a REST request whose token lacks the operation's scope as GitHub
// does. An issue that is not a pull request is reached through issues only: the
// pull_requests alternative of the issues/* endpoints holds for pull requests alone. The
// caller holds s.mu.
func (s *Server) refuseScope(c *restCtx) (int, any, bool) {
	p := s.Granted(bearer(c.r))
	if p == nil {
		return 0, nil, false
	}
	n, known := perms.REST[c.op.OperationID]
	if !known {
		s.unexpected = append(s.unexpected, "ghfake: no permission is recorded for "+c.op.OperationID+" (perms.REST)")
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

// forbidden reports whether the executor's token may not see an object of type typ, or
// field typ.field (field "" for the object itself), recording GitHub's error at path.
func (e *executor) forbidden(typ, field string, path []any) bool {
	key := typ
	if field != "" {
		key = typ + "." + field
	}
	n, ok := perms.GraphQL[key]
	if !ok || perms.Satisfied(e.perms, n.Alternatives(nil)) {
		return false
	}
	e.x.FailTyped(path, "FORBIDDEN", "Resource not accessible by integration", false)
	return true
}
