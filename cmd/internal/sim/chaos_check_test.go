package sim

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// The promises a chaos story is held to, each judged from the fake's world and its records
// (the merges, the comments, the dispatches) and from the state between steps, never by
// working out what the action should have done.
const (
	invPlay        = "plays"                      // the story plays: no step refused, no request GitHub would refuse
	invApproved    = "merged-gates-held"          // every condition of the config's gates held at the merge, judged from GitHub's records
	invClosed      = "never-merged-closed"        // no merge after the pull request was closed
	invOneComment  = "one-state-comment"          // exactly one state comment (at most one if the story closes the pull request)
	invDispatch    = "one-dispatch-attempt"       // at most one dispatch per run, stage and attempt
	invConverges   = "merges-after-faults"        // after the faults, CI, an approval and a few events merge it
	invEscalated   = "escalated-until-command"    // an escalated run moves only on a command (or the pull request's close)
	invAgentHead   = "merged-head-agent-reviewed" // where a push restarts the reviews, the review a merge rests on was dispatched for the merged head
	invQuiet       = "nothing-started-after-end"  // no agent dispatched once the pull request is merged or closed (a late report starts nothing)
	invSweepStatus = "status-comment-by-sweep"    // a story that ends on the sweep alone ends merged with its state comment
	chaosWritePerm = "write maintain admin"
)

// chaosInvariants lists them in the order the report gives them.
var chaosInvariants = []string{invPlay, invApproved, invClosed, invOneComment, invDispatch, invConverges, invEscalated, invAgentHead, invQuiet, invSweepStatus}

// chaosKnownOpen are the promises broken by defects that are known and being fixed, with
// what names them: TestChaos logs their failures instead of failing. Remove an entry when its
// fix is merged.
var chaosKnownOpen = map[string]string{}

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
	spec, err := run.cfg.gateSpec()
	if err != nil {
		fail(invPlay, "%v", err)
		return out
	}
	for _, m := range run.fake.Merges() {
		for _, why := range spec.unheld(m) {
			fail(invApproved, "merged #%d at %s: %s", m.Number, short(m.HeadSHA), why)
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
	judgeQuiet(run, fail)
	return out
}

// judgeComments counts the state comments the action's identity wrote on the pull request,
// placeholders of one among them (a placeholder left beside the state comment is one too
// many). A story that ends on the sweep is held to it apart (invSweepStatus): with no event
// after its tail, the comment it lacks is the sweep's to post.
func judgeComments(run *chaosRun, fail func(string, string, ...any)) {
	var n int
	func() {
		defer func() { _ = recover() }() // no pull request: no comment
		for _, c := range run.fake.Comments(chaosRepo, chaosPR) {
			if c.Author == ghfake.BotLogin && (state.HasMarker(c.Body) || state.IsPlaceholder(c.Body)) {
				n++
			}
		}
	}()
	last := run.snaps[len(run.snaps)-1]
	switch {
	case n > 1:
		fail(invOneComment, "%d state comments (placeholders counted)", n)
	case n == 0 && run.sweepEnd && last.merged && !storyClosed(run.steps):
		fail(invSweepStatus, "merged with no state comment, and the sweeps after it posted none")
	case n == 0 && !storyClosed(run.steps):
		fail(invOneComment, "no state comment")
	}
}

// judgeQuiet: the fake received no dispatch after the first snapshot that shows the pull
// request merged or closed (what a step did is seen by the next snapshot, so a dispatch in
// the step that merged is not counted against it).
func judgeQuiet(run *chaosRun, fail func(string, string, ...any)) {
	judgeQuietOf(run.snaps, len(run.fake.Dispatches()), fail)
}

// judgeQuietOf is judgeQuiet over the snapshots and the dispatches at the end.
func judgeQuietOf(snaps []chaosSnap, n int, fail func(string, string, ...any)) {
	for i, s := range snaps {
		if !s.merged && !s.closed {
			continue
		}
		if n > s.dispatches {
			fail(invQuiet, "%d dispatch(es) after the pull request was %s (by step %d)", n-s.dispatches, map[bool]string{true: "merged", false: "closed"}[s.merged], i)
		}
		return
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
			if after.runs[id] == model.RunEscalated && before.runs[id] != model.RunEscalated {
				since[id] = i
			}
		}
		if after.closed || after.merged {
			continue
		}
		for _, id := range slices.Sorted(maps.Keys(before.runs)) {
			if before.runs[id] != model.RunEscalated || after.runs[id] == "" || after.runs[id] == model.RunEscalated {
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
