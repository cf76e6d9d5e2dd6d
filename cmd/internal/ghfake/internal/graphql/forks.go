package graphql

import (
	"fmt"
	"sort"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// The association of a commit with pull requests, and the list of a repository's pull
// requests, as GitHub answers them for forks: a commit that only a fork's branches reach
// is no object of the base repository, so asking the base about it (REST
// commits/{sha}/pulls, GraphQL Commit.associatedPullRequests) lists no pull request. What
// finds a fork's pull request from the base is the list of open pull requests by head branch.

func forkResolvers() {
	on("Repository", map[string]resolver{
		"pullRequests": func(_ *executor, p any, a map[string]any) (any, error) {
			items, err := repoPulls(p.(*world.Repo), a)
			if err != nil {
				return nil, err
			}
			return paginate("pullRequests", items, a)
		},
	})
}

// repoPulls are the pull requests of Repository.pullRequests: filtered by states,
// headRefName and baseRefName, ordered by orderBy (default: creation, ascending). The
// labels filter is refused rather than guessed at: nothing here needs it.
func repoPulls(r *world.Repo, a map[string]any) ([]any, error) {
	states, _ := a["states"].([]any)
	if one, ok := a["states"].(string); ok { // GraphQL takes one value for a list of one
		states = []any{one}
	}
	head, base := strArg(a, "headRefName"), strArg(a, "baseRefName")
	if a["labels"] != nil {
		return nil, fmt.Errorf("ghfake: pullRequests(labels:) is not served by the fake")
	}
	var prs []*world.Issue
	for _, pr := range world.PRsOf(r) {
		if matchState(states, prState(pr)) && (head == "" || pr.Head == head) && (base == "" || pr.Base == base) {
			prs = append(prs, pr)
		}
	}
	if o, ok := a["orderBy"].(map[string]any); ok {
		field, _ := o["field"].(string)
		dir, _ := o["direction"].(string)
		key := map[string]func(*world.Issue) int64{
			"CREATED_AT": func(i *world.Issue) int64 { return i.CreatedAt.UnixNano()*1000 + int64(i.Number) },
			"UPDATED_AT": func(i *world.Issue) int64 { return i.UpdatedAt.UnixNano()*1000 + int64(i.Number) },
		}[field]
		if key == nil {
			return nil, fmt.Errorf("Argument 'field' on InputObject 'IssueOrder' has an invalid value (%q)", field)
		}
		sort.SliceStable(prs, func(i, j int) bool {
			if dir == "DESC" {
				return key(prs[i]) > key(prs[j])
			}
			return key(prs[i]) < key(prs[j])
		})
	}
	items := make([]any, len(prs))
	for i, pr := range prs {
		items[i] = pr
	}
	return items, nil
}
