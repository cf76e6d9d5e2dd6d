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

// CompleteCheck completes check run name with conclusion on the pull request's current head (a run
// of the same name and app on that commit is replaced, as a re-run is).
//
// With app "" the run is an Actions workflow's: its suite belongs to github-actions and the event is
// workflow_run/completed (GitHub sends no check events for suites Actions created). Otherwise the
// event is check_suite/completed of that app.
func (s *Server) CompleteCheck(repoName string, number int, name, conclusion, app string) Event {
	if !conclusions[conclusion] {
		panic(fmt.Sprintf("ghfake: check conclusion %q is not one of success, failure, neutral, cancelled, skipped, timed_out, action_required", conclusion))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	pr := s.mustPR(r, number)
	c := r.commits[pr.headSHA]
	workflow := app == ""
	if workflow {
		app = actionsApp
	}
	run := &checkRun{id: s.newBigID(), suiteID: s.newBigID(), name: name, status: "completed",
		conclusion: conclusion, app: app, completedAt: s.clock()}
	kept := c.checks[:0]
	for _, old := range c.checks {
		if old.name != name || old.app != app {
			kept = append(kept, old)
		}
	}
	c.checks = append(kept, run)
	if workflow {
		return s.workflowRunEvent(r, pr, run)
	}
	return s.checkSuiteEvent(r, pr, run)
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
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.mustRepo(repoName)
	pr := s.mustPR(r, number)
	c := r.commits[pr.headSHA]
	stat := s.addStatus(c, context, st)
	return s.statusEvent(r, pr, c, stat)
}

// addStatus records a commit status. The caller holds s.mu.
func (s *Server) addStatus(c *commit, context, state string) *status {
	st := &status{id: s.newID(), context: context, state: state, createdAt: s.clock()}
	c.statuses = append(c.statuses, st)
	return st
}

// rollupContexts are a commit's check runs and the latest status of each context, as the
// status-check rollup lists them.
func rollupContexts(c *commit) []any {
	var out []any
	for _, cr := range c.checks {
		out = append(out, cr)
	}
	latest := map[string]*status{}
	var order []string
	for _, st := range c.statuses {
		if _, ok := latest[st.context]; !ok {
			order = append(order, st.context)
		}
		latest[st.context] = st
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
		if x.status != "completed" {
			return "PENDING"
		}
		switch x.conclusion {
		case "success", "neutral", "skipped":
			return "SUCCESS"
		}
		return "FAILURE"
	case *status:
		return strings.ToUpper(x.state)
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
