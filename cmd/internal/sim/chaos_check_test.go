package sim

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/state"
)

// The promises a chaos story is held to, each judged from the fake's world and its records
// (the merges, the comments, the dispatches) and from the state between steps, never by
// working out what the action should have done.
const (
	invPlay        = "plays"                      // the story plays: no step refused, no request GitHub would refuse
	invApproved    = "merged-approved-green"      // a merge had a write approval of the merged head and green CI on it
	invClosed      = "never-merged-closed"        // no merge after the pull request was closed
	invOneComment  = "one-state-comment"          // exactly one state comment (at most one if the story closes the pull request)
	invDispatch    = "one-dispatch-attempt"       // at most one dispatch per run, stage and attempt
	invConverges   = "merges-after-faults"        // after the faults, CI, an approval and a few events merge it
	invEscalated   = "escalated-until-command"    // an escalated run moves only on a command (or the pull request's close)
	invAgentHead   = "merged-head-agent-reviewed" // where a push restarts the reviews, the review a merge rests on was dispatched for the merged head
	chaosWritePerm = "write maintain admin"
)

// chaosInvariants lists them in the order the report gives them.
var chaosInvariants = []string{invPlay, invApproved, invClosed, invOneComment, invDispatch, invConverges, invEscalated, invAgentHead}

// chaosFailure is a broken promise: which, and what shows it.
type chaosFailure struct {
	invariant, detail string
}

// judge holds the played story to every promise.
func judge(run *chaosRun) []chaosFailure {
	var out []chaosFailure
	fail := func(inv, format string, args ...any) {
		out = append(out, chaosFailure{inv, fmt.Sprintf(format, args...)})
	}
	if run.err != nil {
		fail(invPlay, "%v", run.err)
		return out
	}
	for _, m := range run.fake.Merges() {
		if m.Number != chaosPR {
			continue
		}
		if why := approvedAndGreen(m); why != "" {
			fail(invApproved, "merged %s: %s", m.HeadSHA[:min(7, len(m.HeadSHA))], why)
		}
	}
	closedAt := -1
	for i, s := range run.snaps {
		if s.closed && !s.merged && closedAt < 0 {
			closedAt = i
		}
		if s.merged && closedAt >= 0 {
			fail(invClosed, "closed before step %d, merged by step %d", closedAt+1, i+1)
			break
		}
	}
	judgeComments(run, fail)
	judgeDispatches(run, fail)
	last := run.snaps[len(run.snaps)-1]
	if !storyClosed(run.steps) && !last.merged {
		fail(invConverges, "not merged after the tail; runs: %v", last.runs)
	}
	judgeEscalations(run, fail)
	judgeAgentHead(run, fail)
	return out
}

// approvedAndGreen says what a merge lacked: "" when someone with write access other than the
// author had, as their latest word, approved the merged head, and every check run and commit
// status on it had succeeded (and there was at least one).
func approvedAndGreen(m ghfake.MergeRecord) string {
	latest := map[string]ghfake.ReviewRecord{}
	for _, rv := range m.Reviews {
		if rv.State == "COMMENTED" || rv.User == m.Author || strings.HasSuffix(rv.User, "[bot]") {
			continue
		}
		latest[rv.User] = rv
	}
	approved := false
	for _, rv := range latest {
		if rv.State == "APPROVED" && rv.CommitID == m.HeadSHA && strings.Contains(chaosWritePerm, rv.Permission) && rv.Permission != "" {
			approved = true
		}
	}
	var why []string
	if !approved {
		why = append(why, fmt.Sprintf("no write approval of the head stood (reviews: %v)", m.Reviews))
	}
	green := len(m.Checks)+len(m.Statuses) > 0
	for _, c := range m.Checks {
		green = green && c.Status == "completed" && c.Conclusion == "success"
	}
	last := map[string]string{}
	for _, st := range m.Statuses {
		last[st.Context] = st.State
	}
	for _, st := range last {
		green = green && st == "success"
	}
	if !green {
		why = append(why, fmt.Sprintf("CI was not green on the head (checks %v, statuses %v)", m.Checks, m.Statuses))
	}
	return strings.Join(why, "; ")
}

// judgeComments counts the state comments the action's identity wrote on the pull request.
func judgeComments(run *chaosRun, fail func(string, string, ...any)) {
	var n int
	func() {
		defer func() { _ = recover() }() // no pull request: no comment
		for _, c := range run.fake.Comments(chaosRepo, chaosPR) {
			if c.Author == ghfake.BotLogin && state.HasMarker(c.Body) {
				n++
			}
		}
	}()
	if n > 1 || (n == 0 && !storyClosed(run.steps)) {
		fail(invOneComment, "%d state comments", n)
	}
}

// judgeDispatches counts the dispatches of each run, stage and attempt.
func judgeDispatches(run *chaosRun, fail func(string, string, ...any)) {
	count := map[string]int{}
	for _, d := range run.fake.Dispatches() {
		count[fmt.Sprintf("run %v stage %v attempt %v", d.Inputs["run"], d.Inputs["stage"], d.Inputs["attempt"])]++
	}
	keys := slices.Sorted(maps.Keys(count))
	for _, k := range keys {
		if count[k] > 1 {
			fail(invDispatch, "%s dispatched %d times", k, count[k])
		}
	}
}

// judgeEscalations: between two snapshots, a run escalated before is still escalated after,
// unless a /pipeline command from someone with write access was posted since the step that
// escalated it (or was posted and its event lost before: the action reads the commands it
// missed), or the pull request was closed or merged (which end the runs).
func judgeEscalations(run *chaosRun, fail func(string, string, ...any)) {
	since := map[string]int{} // run id → the step that escalated it
	for i := 0; i+1 < len(run.snaps) && i < len(run.steps); i++ {
		before, after := run.snaps[i], run.snaps[i+1]
		st := run.steps[i]
		for _, id := range slices.Sorted(maps.Keys(after.runs)) {
			if after.runs[id] == engine.RunEscalated && before.runs[id] != engine.RunEscalated {
				since[id] = i
			}
		}
		if after.closed || after.merged {
			continue
		}
		for _, id := range slices.Sorted(maps.Keys(before.runs)) {
			if before.runs[id] != engine.RunEscalated || after.runs[id] == "" || after.runs[id] == engine.RunEscalated {
				continue
			}
			if !commandedSince(run.steps, since[id], i) {
				fail(invEscalated, "run %s escalated by step %d, %s after step %d (%s) with no command since", id, since[id]+1, after.runs[id], i+1, st.kind)
			}
		}
	}
}

// commandedSince reports whether a step from..to carried a command, or one before them
// carried a command whose event was lost.
func commandedSince(steps []*chaosStep, from, to int) bool {
	for j := 0; j <= to; j++ {
		if stepCommands(steps[j]) && (j >= from || strings.Contains(steps[j].body, "deliver: false")) {
			return true
		}
	}
	return false
}

// stepCommands reports whether a step delivers a /pipeline command from someone with write
// access: itself, a together holding one, or the redelivery of one.
func stepCommands(st *chaosStep) bool {
	switch {
	case st.command:
		return true
	case st.ref != nil:
		return stepCommands(st.ref)
	}
	for _, s := range st.sub {
		if stepCommands(s) {
			return true
		}
	}
	return false
}

// failedInvariants are the distinct invariants among failures, sorted.
func failedInvariants(fs []chaosFailure) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		if !seen[f.invariant] {
			seen[f.invariant] = true
			out = append(out, f.invariant)
		}
	}
	sort.Strings(out)
	return out
}

// judgeAgentHead: under a config whose pushes restart the reviews, the attempt of each agent
// stage that the first run ends on was dispatched while the pull request's head was the head
// it merged. When a dispatch was sent is read from the snapshots (the dispatches the fake had
// received by each step), the head from the pull request then.
func judgeAgentHead(run *chaosRun, fail func(string, string, ...any)) {
	last := run.snaps[len(run.snaps)-1]
	if !run.cfg.restart || !last.merged {
		return
	}
	merged := last.head
	for _, m := range run.fake.Merges() {
		if m.Number == chaosPR {
			merged = m.HeadSHA // a push after the merge moves the branch, not what merged
		}
	}
	ds := run.fake.Dispatches()
	for _, stage := range run.cfg.agents {
		attempt := strconv.Itoa(last.attempts[stage])
		for k, d := range ds {
			if d.Inputs["run"] != chaosRunID || d.Inputs["stage"] != stage || d.Inputs["attempt"] != attempt {
				continue
			}
			for i := 0; i+1 < len(run.snaps); i++ {
				if run.snaps[i].dispatches <= k && k < run.snaps[i+1].dispatches && run.snaps[i].head != merged {
					fail(invAgentHead, "stage %s ended on attempt %s, dispatched during step %d for head %s; merged head %s",
						stage, attempt, i+1, run.snaps[i].head[:7], merged[:7])
				}
			}
		}
	}
}
