package ghfake

import "strings"

// commitResolvers serve a commit and its status rollup.
func commitResolvers() {
	on("Commit", map[string]resolver{
		"oid":             value(func(c *commit) any { return c.sha }),
		"abbreviatedOid":  value(func(c *commit) any { return c.sha[:7] }),
		"id":              value(func(c *commit) any { return nodeID("Commit", stableID(c.sha)) }),
		"message":         value(func(c *commit) any { return c.message }),
		"messageHeadline": value(func(c *commit) any { return strings.SplitN(c.message, "\n", 2)[0] }),
		"committedDate":   value(func(c *commit) any { return gqlTime(c.date) }),
		"authoredDate":    value(func(c *commit) any { return gqlTime(c.date) }),
		"url":             value(func(c *commit) any { return htmlBase + "/" + c.repo.fullName() + "/commit/" + c.sha }),
		"statusCheckRollup": value(func(c *commit) any {
			if len(rollupContexts(c)) == 0 {
				return nil
			}
			return rollup{c}
		}),
		// GitHub's schema has no states argument here (only first/last/after/before/orderBy).
		"associatedPullRequests": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*commit)
			var items []any
			for _, pr := range prsOfCommit(c.repo, c.sha) {
				items = append(items, pr)
			}
			return paginate("associatedPullRequests", items, a)
		},
	})
	on("StatusCheckRollup", map[string]resolver{
		"id":    value(func(r rollup) any { return nodeID("StatusCheckRollup", stableID(r.c.sha)) }),
		"state": value(func(r rollup) any { return rollupState(rollupContexts(r.c)) }),
		"contexts": func(_ *executor, p any, a map[string]any) (any, error) {
			return paginate("contexts", rollupContexts(p.(rollup).c), a)
		},
		"commit": value(func(r rollup) any { return r.c }),
	})
}

// checkResolvers serve the contexts of a status rollup: check runs with their suites,
// apps and workflows, and commit statuses.
func checkResolvers() {
	on("CheckRun", map[string]resolver{
		"id":          value(func(c *checkRun) any { return nodeID("CheckRun", c.id) }),
		"databaseId":  value(func(c *checkRun) any { return c.id }),
		"name":        value(func(c *checkRun) any { return c.name }),
		"status":      value(func(c *checkRun) any { return strings.ToUpper(c.status) }),
		"conclusion":  value(func(c *checkRun) any { return nilIfEmpty(strings.ToUpper(c.conclusion)) }),
		"completedAt": value(func(c *checkRun) any { return gqlTime(c.completedAt) }),
		"startedAt":   value(func(c *checkRun) any { return gqlTime(c.completedAt) }),
		"detailsUrl":  value(func(c *checkRun) any { return nil }),
		"isRequired":  value(func(c *checkRun) any { return false }),
		"checkSuite":  value(func(c *checkRun) any { return c.suite }),
	})
	on("CheckSuite", map[string]resolver{
		"id":         value(func(cs *checkSuite) any { return nodeID("CheckSuite", cs.id) }),
		"databaseId": value(func(cs *checkSuite) any { return cs.id }),
		"app":        value(func(cs *checkSuite) any { return app(cs.app) }),
		"workflowRun": value(func(cs *checkSuite) any {
			if cs.workflow == "" {
				return nil
			}
			return wfRun{cs}
		}),
	})
	on("App", map[string]resolver{
		"id":         value(func(a app) any { return nodeID("App", appID(string(a))) }),
		"databaseId": value(func(a app) any { return appID(string(a)) }),
		"slug":       value(func(a app) any { return string(a) }),
		"name":       value(func(a app) any { return string(a) }),
	})
	on("WorkflowRun", map[string]resolver{
		"id":         value(func(w wfRun) any { return nodeID("WorkflowRun", w.cs.runID) }),
		"databaseId": value(func(w wfRun) any { return w.cs.runID }),
		"checkSuite": value(func(w wfRun) any { return w.cs }),
		"workflow":   value(func(w wfRun) any { return workflow{w.cs.repo, w.cs.workflow} }),
	})
	on("Workflow", map[string]resolver{
		"id":         value(func(w workflow) any { return nodeID("Workflow", workflowID(w.repo, w.name)) }),
		"databaseId": value(func(w workflow) any { return workflowID(w.repo, w.name) }),
		"name":       value(func(w workflow) any { return w.name }),
	})
	on("StatusContext", map[string]resolver{
		"id":          value(func(s *status) any { return nodeID("StatusContext", s.id) }),
		"context":     value(func(s *status) any { return s.context }),
		"state":       value(func(s *status) any { return strings.ToUpper(s.state) }),
		"description": value(func(s *status) any { return nil }),
		"targetUrl":   value(func(s *status) any { return nil }),
		"createdAt":   value(func(s *status) any { return gqlTime(s.createdAt) }),
		"isRequired":  value(func(s *status) any { return false }),
	})
}

// prState is a pull request's PullRequestState.
func prState(pr *issue) string {
	switch {
	case pr.merged:
		return "MERGED"
	case pr.state == "closed":
		return "CLOSED"
	}
	return "OPEN"
}

// matchState reports whether state is in the states filter (an empty filter matches all).
func matchState(states []any, state string) bool {
	if len(states) == 0 {
		return true
	}
	for _, s := range states {
		if s == state {
			return true
		}
	}
	return false
}
