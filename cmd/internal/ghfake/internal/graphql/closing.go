package graphql

import "github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"

func closingResolvers() {
	on("PullRequest", map[string]resolver{
		"closingIssuesReferences": func(e *executor, p any, a map[string]any) (any, error) {
			var items []any
			for _, is := range e.s.ClosingIssues(p.(*world.Issue)) {
				items = append(items, is)
			}
			return paginate("closingIssuesReferences", items, a)
		},
	})
}
