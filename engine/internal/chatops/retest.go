package chatops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/engine/markdown"
	"github.com/org/pipeline-action/engine/model"
)

// `/pipeline retest` re-runs the failed jobs of the workflow runs whose checks failed on the
// pull request's head (GitHub's "Re-run failed jobs"), once per head per person: the same
// person asking again on the same head is told so, and a new push is a new head. It moves no
// run: the checks go back to pending, and the gates read their new results as they come.

// retestPrefix begins the key of a retest's rerun; the rest names the comment and the run.
const retestPrefix = "retest/"

// retest asks for the rerun of the failed workflow runs on the subject pull request's head.
func retest(k Kernel, c model.IssueComment, _ string) {
	w := k.World()
	pr := w.Facts.PR
	if w.Issue || pr == nil || pr.State != model.PROpen {
		reply(k, c, "`/pipeline retest` re-runs the failed checks of an open pull request's head; there is none here.")
		return
	}
	head := model.Short(pr.HeadSHA)
	asked := strings.ToLower(c.Author) + "@" + pr.HeadSHA
	if slices.Contains(w.St.Retested, asked) {
		k.Logf("comment %d: /pipeline retest by %s on %s asked for already", c.ID, c.Author, head)
		reply(k, c, fmt.Sprintf("You asked for a retest of %s already; a new push is a new head.", head))
		return
	}
	runs, names := failedRuns(pr.Checks)
	if len(runs) == 0 {
		reply(k, c, fmt.Sprintf("No workflow run on %s has a failed check to re-run.", head))
		return
	}
	for _, id := range runs {
		k.Emit(model.Effect{Key: fmt.Sprintf("%s%d/%d", retestPrefix, c.ID, id), Kind: model.EffectRerun, Number: pr.Number,
			RunID: id, WriteAhead: true})
	}
	w.St.Retested = append(w.St.Retested, asked)
	if len(w.St.Retested) > model.MaxRetested {
		w.St.Retested = w.St.Retested[len(w.St.Retested)-model.MaxRetested:]
	}
	k.Logf("comment %d: /pipeline retest by %s: re-running the failed jobs of %s on %s", c.ID, c.Author, strings.Join(names, ", "), head)
	reply(k, c, fmt.Sprintf("Re-running the failed jobs of %s on %s.", markdown.InertInline(strings.Join(names, ", ")), head))
}

// failedRuns are the workflow runs (their ids, and their workflows' names) with a failed
// check among checks, in the order they first appear.
func failedRuns(checks []model.CheckResult) (ids []int64, names []string) {
	for _, ch := range checks {
		if ch.Kind != "check_run" || ch.State != model.CheckFailure || ch.RunID == 0 || slices.Contains(ids, ch.RunID) {
			continue
		}
		ids = append(ids, ch.RunID)
		names = append(names, ch.Workflow)
	}
	return ids, names
}
