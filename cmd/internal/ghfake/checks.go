package ghfake

import (
	"fmt"
	"strings"
)

// actionsApp is the slug of the app owning check suites that Actions workflows create.
const actionsApp = "github-actions"

// conclusions GitHub allows for a completed check run.
var conclusions = map[string]bool{"success": true, "failure": true, "neutral": true, "cancelled": true,
	"skipped": true, "timed_out": true, "action_required": true}

// CompleteCheck completes check run name with conclusion on the pull request's current head.
//
// With app "" the run is the one job of an Actions workflow of the same name: see CompleteJob.
// Otherwise the run belongs to that app's check suite on the commit (one per app and commit,
// as GitHub makes them), and the event is check_suite/completed of that app. A run of the same
// name in the same suite is replaced, as a re-run is; runs of other apps stay.
func (s *Server) CompleteCheck(repoName string, number int, name, conclusion, app string) Event {
	if app == "" {
		return s.CompleteJob(repoName, number, name, name, conclusion)
	}
	return s.completeCheck(repoName, number, app, "", name, conclusion)
}

// CompleteJob completes job name of Actions workflow workflow with conclusion on the pull
// request's current head, and returns the workflow_run/completed event (GitHub sends no check
// events for suites Actions created). Each workflow has its own run, and so its own suite, on a
// commit; a re-run of the job lands in the same suite and replaces the earlier run.
func (s *Server) CompleteJob(repoName string, number int, workflow, name, conclusion string) Event {
	if workflow == "" {
		panic("ghfake: a job needs the name of its workflow")
	}
	return s.completeCheck(repoName, number, actionsApp, workflow, name, conclusion)
}

func (s *Server) completeCheck(repoName string, number int, app, workflow, name, conclusion string) Event {
	if !conclusions[conclusion] {
		panic(fmt.Sprintf("ghfake: check conclusion %q is not one of success, failure, neutral, cancelled, skipped, timed_out, action_required", conclusion))
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	c := r.Commits[pr.HeadSHA]
	suite := s.SuiteOf(c, app, workflow)
	run := &checkRun{ID: s.NewBigID(), Suite: suite, Name: name, Status: "completed",
		Conclusion: conclusion, CompletedAt: s.Clock()}
	kept := c.Checks[:0]
	for _, old := range c.Checks {
		if old.Name != name || old.Suite != suite {
			kept = append(kept, old)
		}
	}
	c.Checks = append(kept, run)
	if workflow != "" {
		return s.workflowRunEvent(r, pr, suite)
	}
	return s.checkSuiteEvent(r, pr, suite)
}

// suiteRuns are the check runs of suite cs on commit c.
func suiteRuns(c *commit, cs *checkSuite) []*checkRun {
	var out []*checkRun
	for _, cr := range c.Checks {
		if cr.Suite == cs {
			out = append(out, cr)
		}
	}
	return out
}

// suiteConclusion is the conclusion of a completed suite: its worst run's, as GitHub sums it
// up (failure-like conclusions before neutral and skipped, then success).
func suiteConclusion(runs []*checkRun) string {
	rank := map[string]int{"success": 0, "skipped": 1, "neutral": 2, "cancelled": 3, "timed_out": 4,
		"action_required": 5, "failure": 6}
	worst := "success"
	for _, cr := range runs {
		if rank[cr.Conclusion] > rank[worst] {
			worst = cr.Conclusion
		}
	}
	return worst
}

// SetStatus sets commit status context to state (error, failure, pending or success) on the pull
// request's head and returns the status event.
func (s *Server) SetStatus(repoName string, number int, context, state string) Event {
	st := strings.ToLower(state)
	switch st {
	case "error", "failure", "pending", "success":
	default:
		panic(fmt.Sprintf("ghfake: status state %q is not error, failure, pending or success", state))
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	r := s.MustRepo(repoName)
	pr := s.MustPR(r, number)
	c := r.Commits[pr.HeadSHA]
	stat := s.AddStatus(c, context, st)
	return s.statusEvent(r, pr, c, stat)
}

// rollupContexts are a commit's check runs and the latest status of each context, as the
// status-check rollup lists them.
func rollupContexts(c *commit) []any {
	var out []any
	for _, cr := range c.Checks {
		out = append(out, cr)
	}
	latest := map[string]*status{}
	var order []string
	for _, st := range c.Statuses {
		if _, ok := latest[st.Context]; !ok {
			order = append(order, st.Context)
		}
		latest[st.Context] = st
	}
	for _, ctx := range order {
		out = append(out, latest[ctx])
	}
	return out
}

// contextState is one rollup context's StatusState.
func contextState(v any) string {
	switch x := v.(type) {
	case *checkRun:
		if x.Status != "completed" {
			return "PENDING"
		}
		switch x.Conclusion {
		case "success", "neutral", "skipped":
			return "SUCCESS"
		}
		return "FAILURE"
	case *status:
		return strings.ToUpper(x.State)
	}
	return "PENDING"
}

// stateRank orders StatusState from best to worst.
var stateRank = map[string]int{"SUCCESS": 0, "EXPECTED": 1, "PENDING": 2, "FAILURE": 3, "ERROR": 4}

// rollupState is the worst state of the contexts.
func rollupState(contexts []any) string {
	worst := "SUCCESS"
	for _, c := range contexts {
		if st := contextState(c); stateRank[st] > stateRank[worst] {
			worst = st
		}
	}
	return worst
}
