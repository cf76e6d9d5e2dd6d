package rest

import (
	"net/http"
	"sort"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// Reads that `doctor` makes to see whether a token holds a read scope: each is refused
// by refuseScope before its handler runs, as GitHub refuses it
// whatever the repository holds.

// pullsList: https://docs.github.com/rest/pulls/pulls#list-pull-requests (state open, the
// default; newest first, GitHub's default order).
func pullsList(s *Env, c *restCtx) (int, any) {
	state := c.r.URL.Query().Get("state")
	if state == "" {
		state = "open"
	}
	var prs []*world.Issue
	for _, is := range c.repo.Issues {
		if is.IsPR && (state == "all" || is.State == state) {
			prs = append(prs, is)
		}
	}
	sort.Slice(prs, func(i, j int) bool { return prs[i].Number > prs[j].Number })
	out := make([]any, 0, len(prs))
	for _, pr := range prs {
		out = append(out, s.PRJSON(c.repo, pr))
	}
	return http.StatusOK, c.paginate(out)
}

// reposCombinedStatus: https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference
func reposCombinedStatus(s *Env, c *restCtx) (int, any) {
	cm := s.ResolveCommit(c.repo, c.params["ref"])
	if cm == nil {
		return http.StatusNotFound, NotFound()
	}
	latest := map[string]*world.Status{}
	var order []string
	for _, st := range cm.Statuses {
		if _, ok := latest[st.Context]; !ok {
			order = append(order, st.Context)
		}
		latest[st.Context] = st
	}
	combined := "success"
	statuses := []any{}
	for _, name := range order {
		st := latest[name]
		switch {
		case st.State == "error" || st.State == "failure":
			combined = "failure"
		case st.State == "pending" && combined == "success":
			combined = "pending"
		}
		statuses = append(statuses, shapes.Obj{"id": st.ID, "context": st.Context, "state": st.State,
			"description": st.Description, "target_url": st.TargetURL,
			"created_at": shapes.TS(st.CreatedAt), "updated_at": shapes.TS(st.CreatedAt)})
	}
	if len(order) == 0 {
		combined = "pending" // GitHub's answer for a commit without statuses
	}
	return http.StatusOK, shapes.Obj{"state": combined, "sha": cm.SHA, "total_count": len(statuses), "statuses": statuses,
		"repository": s.RepoJSON(c.repo), "url": s.APIURL("/repos/%s/commits/%s/status", c.repo.FullName(), cm.SHA),
		"commit_url": s.APIURL("/repos/%s/commits/%s", c.repo.FullName(), cm.SHA)}
}

// checksListForRef: https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference
func checksListForRef(s *Env, c *restCtx) (int, any) {
	cm := s.ResolveCommit(c.repo, c.params["ref"])
	if cm == nil {
		return http.StatusNotFound, NotFound()
	}
	runs := []any{}
	for _, cr := range cm.Checks {
		var conclusion any
		if cr.Conclusion != "" {
			conclusion = cr.Conclusion
		}
		runs = append(runs, shapes.Obj{"id": cr.ID, "name": cr.Name, "head_sha": cm.SHA, "status": cr.Status,
			"conclusion": conclusion, "completed_at": shapes.TS(cr.CompletedAt)})
	}
	return http.StatusOK, shapes.Obj{"total_count": len(runs), "check_runs": c.paginate(runs)}
}

// actionsListRunsForRepo: https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository
// The runs are those of the Actions check suites on the repository's commits.
func actionsListRunsForRepo(s *Env, c *restCtx) (int, any) {
	runs := []any{}
	for _, cm := range c.repo.Commits {
		for _, su := range cm.Suites {
			if su.RunID != 0 {
				runs = append(runs, shapes.Obj{"id": su.RunID, "name": su.Workflow, "head_sha": cm.SHA,
					"path": ".github/workflows/" + su.Workflow, "check_suite_id": su.ID})
			}
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].(shapes.Obj)["id"].(int64) > runs[j].(shapes.Obj)["id"].(int64) })
	return http.StatusOK, shapes.Obj{"total_count": len(runs), "workflow_runs": c.paginate(runs)}
}
