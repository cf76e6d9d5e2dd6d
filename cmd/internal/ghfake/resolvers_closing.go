package ghfake

func closingResolvers() {
	on("PullRequest", map[string]resolver{
		"closingIssuesReferences": func(e *executor, p any, a map[string]any) (any, error) {
			var items []any
			for _, is := range e.s.ClosingIssues(p.(*issue)) {
				items = append(items, is)
			}
			return paginate("closingIssuesReferences", items, a)
		},
	})
}
