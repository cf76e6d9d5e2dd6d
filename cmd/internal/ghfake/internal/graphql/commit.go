package graphql

import (
	"fmt"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// commitResolvers serve a commit and its status rollup.
func commitResolvers() {
	on("Commit", map[string]resolver{
		"oid":             value(func(c *world.Commit) any { return c.SHA }),
		"abbreviatedOid":  value(func(c *world.Commit) any { return c.SHA[:7] }),
		"id":              value(func(c *world.Commit) any { return world.NodeID("Commit", world.StableID(c.SHA)) }),
		"message":         value(func(c *world.Commit) any { return c.Message }),
		"messageHeadline": value(func(c *world.Commit) any { return strings.SplitN(c.Message, "\n", 2)[0] }),
		"committedDate":   value(func(c *world.Commit) any { return gqlTime(c.Date) }),
		"authoredDate":    value(func(c *world.Commit) any { return gqlTime(c.Date) }),
		"url":             value(func(c *world.Commit) any { return shapes.HTMLBase + "/" + c.Repo.FullName() + "/commit/" + c.SHA }),
		"statusCheckRollup": value(func(c *world.Commit) any {
			if len(world.RollupContexts(c)) == 0 {
				return nil
			}
			return rollup{c}
		}),
		// GitHub's schema has no states argument here (only first/last/after/before/orderBy).
		"associatedPullRequests": func(_ *executor, p any, a map[string]any) (any, error) {
			c := p.(*world.Commit)
			var items []any
			for _, pr := range world.PRsOfCommit(c.Repo, c.SHA) {
				items = append(items, pr)
			}
			return paginate("associatedPullRequests", items, a)
		},
	})
	on("StatusCheckRollup", map[string]resolver{
		"id":    value(func(r rollup) any { return world.NodeID("StatusCheckRollup", world.StableID(r.c.SHA)) }),
		"state": value(func(r rollup) any { return world.RollupState(world.RollupContexts(r.c)) }),
		"contexts": func(_ *executor, p any, a map[string]any) (any, error) {
			return paginate("contexts", world.RollupContexts(p.(rollup).c), a)
		},
		"commit": value(func(r rollup) any { return r.c }),
	})
}

// checkResolvers serve the contexts of a status rollup: check runs with their suites,
// apps and workflows, and commit statuses.
func checkResolvers() {
	on("CheckRun", map[string]resolver{
		"id":          value(func(c *world.CheckRun) any { return world.NodeID("CheckRun", c.ID) }),
		"databaseId":  value(func(c *world.CheckRun) any { return c.ID }),
		"name":        value(func(c *world.CheckRun) any { return c.Name }),
		"status":      value(func(c *world.CheckRun) any { return strings.ToUpper(c.Status) }),
		"conclusion":  value(func(c *world.CheckRun) any { return shapes.NilIfEmpty(strings.ToUpper(c.Conclusion)) }),
		"completedAt": value(func(c *world.CheckRun) any { return gqlTime(c.CompletedAt) }),
		"startedAt":   value(func(c *world.CheckRun) any { return gqlTime(c.CompletedAt) }),
		"detailsUrl":  value(func(c *world.CheckRun) any { return nil }),
		"isRequired":  value(func(c *world.CheckRun) any { return false }),
		"checkSuite":  value(func(c *world.CheckRun) any { return c.Suite }),
	})
	on("CheckSuite", map[string]resolver{
		"id":         value(func(cs *world.CheckSuite) any { return world.NodeID("CheckSuite", cs.ID) }),
		"databaseId": value(func(cs *world.CheckSuite) any { return cs.ID }),
		"app":        value(func(cs *world.CheckSuite) any { return app(cs.App) }),
		"workflowRun": value(func(cs *world.CheckSuite) any {
			if cs.Workflow == "" {
				return nil
			}
			return wfRun{cs}
		}),
	})
	on("App", map[string]resolver{
		"id":         value(func(a app) any { return world.NodeID("App", shapes.AppID(string(a))) }),
		"databaseId": value(func(a app) any { return shapes.AppID(string(a)) }),
		"slug":       value(func(a app) any { return string(a) }),
		"name":       value(func(a app) any { return string(a) }),
	})
	on("WorkflowRun", map[string]resolver{
		"id":         value(func(w wfRun) any { return world.NodeID("WorkflowRun", w.cs.RunID) }),
		"databaseId": value(func(w wfRun) any { return w.cs.RunID }),
		"checkSuite": value(func(w wfRun) any { return w.cs }),
		"workflow":   value(func(w wfRun) any { return workflow{w.cs.Repo, w.cs.Workflow} }),
		"url": value(func(w wfRun) any {
			return fmt.Sprintf("%s/%s/actions/runs/%d", shapes.HTMLBase, w.cs.Repo.FullName(), w.cs.RunID)
		}),
	})
	on("Workflow", map[string]resolver{
		"id":         value(func(w workflow) any { return world.NodeID("Workflow", shapes.WorkflowID(w.repo, w.name)) }),
		"databaseId": value(func(w workflow) any { return shapes.WorkflowID(w.repo, w.name) }),
		"name":       value(func(w workflow) any { return w.name }),
	})
	on("StatusContext", map[string]resolver{
		"id":          value(func(s *world.Status) any { return world.NodeID("StatusContext", s.ID) }),
		"context":     value(func(s *world.Status) any { return s.Context }),
		"state":       value(func(s *world.Status) any { return strings.ToUpper(s.State) }),
		"description": value(func(s *world.Status) any { return shapes.OptString(s.Description) }),
		"targetUrl":   value(func(s *world.Status) any { return shapes.OptString(s.TargetURL) }),
		"createdAt":   value(func(s *world.Status) any { return gqlTime(s.CreatedAt) }),
		"isRequired":  value(func(s *world.Status) any { return false }),
	})
}

// prState is a pull request's PullRequestState.
func prState(pr *world.Issue) string {
	switch {
	case pr.Merged:
		return "MERGED"
	case pr.State == "closed":
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
