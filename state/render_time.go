package state

import (
	"fmt"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// deadlineWords says what each kind of deadline is, for the state comment.
var deadlineWords = map[string]string{
	engine.DeadlineTimeout:  "times out",
	engine.DeadlineDelay:    "the delay ends",
	engine.DeadlinePoll:     "next poll",
	engine.DeadlineReminder: "next reminder",
	engine.DeadlineFollow:   "the pull requests in other repositories are read again",
}

// renderTime says what the current stage of a run waits for in time (its deadlines,
// oldest first, and how its timeout was extended), or that the run was escalated.
func renderTime(b *strings.Builder, run *engine.Run) {
	if run.Status == engine.RunEscalated {
		fmt.Fprintf(b, "**Escalated** — it waits for a person: %s\n\n", inline(run.Message))
		return
	}
	sr := run.Stages[run.Stage]
	if run.Status.Final() || sr == nil || len(sr.Deadlines) == 0 {
		return
	}
	ds := append([]engine.Deadline(nil), sr.Deadlines...)
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].At.Before(ds[j].At) })
	fmt.Fprintf(b, "**Deadlines** — stage %s:\n", code(run.Stage))
	for _, d := range ds {
		what := deadlineWords[d.Kind]
		if w := deadlineWhat(d); w != "" {
			what = w
		}
		if what == "" {
			what = inline(d.Kind)
		}
		fmt.Fprintf(b, "- ⏰ %s %s\n", what, stamp(d.At))
	}
	if sr.Status == engine.StageWaiting && sr.Message != "" && !shownWhy(sr) {
		fmt.Fprintf(b, "- %s\n", inline(sr.Message))
	}
	b.WriteString("\n")
}

// shownWhy reports whether "Why it waits" already says sr's message, as one of its results.
func shownWhy(sr *engine.StageRun) bool {
	for _, r := range sr.Results {
		if r.Message == sr.Message {
			return true
		}
	}
	return false
}
