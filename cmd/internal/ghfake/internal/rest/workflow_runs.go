package rest

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/world"
)

// The workflow runs the action's workflow_dispatches started, as GitHub lists them per
// workflow: newest first, filtered by event and by creation time, each with its display
// title (the workflow's run-name over the inputs it was given).

// actionsListWorkflowRuns: https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow
// {workflow_id} is the workflow's file name or its id. Filters: event, created (`>=T`,
// `>T`, `<=T`, `<T`, `T..T`, or a day; T a date or an RFC 3339 time).
func actionsListWorkflowRuns(s *Env, c *restCtx) (int, any) {
	q := c.r.URL.Query()
	within, ok := createdFilter(q.Get("created"))
	if !ok {
		return http.StatusUnprocessableEntity, ErrorBody("Validation Failed: created is not a date range")
	}
	id := c.params["workflow_id"]
	var runs []world.Dispatch
	for _, d := range s.DispatchLog {
		if d.Workflow == "" || !strings.EqualFold(d.Repo, c.repo.FullName()) {
			continue
		}
		if d.Workflow != id && strconv.FormatInt(shapes.WorkflowID(c.repo, d.Workflow), 10) != id {
			continue
		}
		if e := q.Get("event"); (e != "" && e != "workflow_dispatch") || !within(d.Created) {
			continue
		}
		runs = append(runs, d)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Created.After(runs[j].Created) })
	out := make([]any, 0, len(runs))
	for _, d := range runs {
		out = append(out, s.DispatchRunJSON(c.repo, d))
	}
	return http.StatusOK, shapes.Obj{"total_count": len(out), "workflow_runs": c.paginate(out)}
}

// createdFilter reads GitHub's `created` range; "" holds every time.
func createdFilter(v string) (func(time.Time) bool, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return func(time.Time) bool { return true }, true
	}
	if lo, hi, ok := strings.Cut(v, ".."); ok {
		a, okA := parseWhen(lo)
		b, okB := parseWhen(hi)
		return func(t time.Time) bool { return !t.Before(a) && !t.After(b) }, okA && okB
	}
	for _, op := range []string{">=", "<=", ">", "<"} {
		if rest, ok := strings.CutPrefix(v, op); ok {
			at, ok := parseWhen(rest)
			return func(t time.Time) bool {
				switch op {
				case ">=":
					return !t.Before(at)
				case "<=":
					return !t.After(at)
				case ">":
					return t.After(at)
				}
				return t.Before(at)
			}, ok
		}
	}
	day, ok := parseWhen(v)
	return func(t time.Time) bool { return !t.Before(day) && t.Before(day.Add(24*time.Hour)) }, ok
}

func parseWhen(v string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(v)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// actionsRerunFailedJobs: https://docs.github.com/rest/actions/workflow-runs#re-run-failed-jobs-from-a-workflow-run
// The failed jobs of the run go back to the queue (world.RerunFailed); an unknown run is 404.
func actionsRerunFailedJobs(s *Env, c *restCtx) (int, any) {
	id, ok := c.num("run_id")
	if !ok {
		return http.StatusNotFound, NotFound()
	}
	if _, ok := s.RerunFailed(c.repo, id, c.login); !ok {
		return http.StatusNotFound, NotFound()
	}
	return http.StatusCreated, shapes.Obj{}
}
