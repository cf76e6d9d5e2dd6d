package graphql

import (
	"fmt"
	"net/http"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/act"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

func updateBranchResolvers() {
	on("Mutation", map[string]resolver{"updatePullRequestBranch": updateBranchMutation})
}

// updateBranchMutation brings the pull request pullRequestId up to date with its base, by
// merge (updateMethod MERGE, the default) or rebase, at expectedHeadOid when given, as
// https://docs.github.com/graphql/reference/mutations#updatepullrequestbranch does; its
// refusals are those of the REST call, in its words.
func updateBranchMutation(e *executor, _ any, a map[string]any) (any, error) {
	in := input(a)
	id, _ := in["pullRequestId"].(string)
	pr, ok := e.s.findNode(id).(*world.Issue)
	if !ok || !pr.IsPR {
		return nil, errorOf("NOT_FOUND", "Could not resolve to a node with the global id of '%s'", id)
	}
	if err := e.mayWrite("UpdatePullRequestBranch"); err != nil {
		return nil, err
	}
	prs := act.PRs{Shapes: e.s.Shapes}
	expected, _ := in["expectedHeadOid"].(string)
	if code, msg := prs.UpdateCheck(pr.Repo, pr, e.login, expected); code != 0 {
		kind := "UNPROCESSABLE"
		if code == http.StatusForbidden {
			kind = "FORBIDDEN"
		}
		return nil, errorOf(kind, "%s", msg)
	}
	switch method, _ := in["updateMethod"].(string); method {
	case "", "MERGE":
		prs.UpdateBranchOf(pr.Repo, pr, e.login)
	case "REBASE":
		prs.RebaseBranchOf(pr.Repo, pr, e.login)
	default:
		return nil, fmt.Errorf("unknown updateMethod %q", method)
	}
	return shapes.Obj{"pullRequest": pr, "clientMutationId": in["clientMutationId"]}, nil
}
