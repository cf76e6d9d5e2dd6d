package world

import "strings"

// ActionsApp is the slug of the app owning check suites that Actions workflows create.
const ActionsApp = "github-actions"

// Conclusions GitHub allows for a completed check run.
var Conclusions = map[string]bool{"success": true, "failure": true, "neutral": true, "cancelled": true,
	"skipped": true, "timed_out": true, "action_required": true}

// SuiteRuns are the check runs of suite cs on commit c.
func SuiteRuns(c *Commit, cs *CheckSuite) []*CheckRun {
	var out []*CheckRun
	for _, cr := range c.Checks {
		if cr.Suite == cs {
			out = append(out, cr)
		}
	}
	return out
}

// SuiteConclusion is the conclusion of a completed suite: its worst run's, as GitHub sums it
// up (failure-like conclusions before neutral and skipped, then success).
func SuiteConclusion(runs []*CheckRun) string {
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

// RollupContexts are a commit's check runs and the latest status of each context, as the
// status-check rollup lists them.
func RollupContexts(c *Commit) []any {
	var out []any
	for _, cr := range c.Checks {
		out = append(out, cr)
	}
	latest := map[string]*Status{}
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

// ContextState is one rollup context's StatusState.
func ContextState(v any) string {
	switch x := v.(type) {
	case *CheckRun:
		if x.Status != "completed" {
			return "PENDING"
		}
		switch x.Conclusion {
		case "success", "neutral", "skipped":
			return "SUCCESS"
		}
		return "FAILURE"
	case *Status:
		return strings.ToUpper(x.State)
	}
	return "PENDING"
}

// StateRank orders StatusState from best to worst.
var StateRank = map[string]int{"SUCCESS": 0, "EXPECTED": 1, "PENDING": 2, "FAILURE": 3, "ERROR": 4}

// RollupState is the worst state of the contexts.
func RollupState(contexts []any) string {
	worst := "SUCCESS"
	for _, c := range contexts {
		if st := ContextState(c); StateRank[st] > StateRank[worst] {
			worst = st
		}
	}
	return worst
}
