package graphql

import (
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
