package run

import (
	"context"
	"sort"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/state"
)

// A review may reach no invocation: the recommended pipelines workflow skips
// pull_request_review (GitHub runs it on the pull request's merge ref, which the state
// key's environment refuses), and on a fork's pull request it runs with a read-only
// token. When the approval is the last thing that happens, no later event comes for the
// pull request, so the sweep looks for it: of the pull requests with a waiting run and
// no deadline due, it reads in one query (50 a query) the newest review that approves or
// requests changes, or dismissal, and the last commit of the state file, and advances
// those reviewed since their state was written as it advances a deadline. Such an
// evaluation writes the state file even when what it decided is unchanged (the review
// only changed what a gate says, or nothing), so that the file's commit dates what it
// has seen: each review is looked at by one sweep at most.

// reviewedSubjects returns due with the pull requests of the index reviewed since their
// state was written added, oldest first. A failed read is reported and adds none: the
// next sweep reads again.
func (r *Runner) reviewedSubjects(ctx context.Context, client *ghapi.Client, snap *ghapi.SweepSnapshot, repo string, due []dueSubject) []dueSubject {
	if !snap.State.Exists {
		return due
	}
	taken := map[int]bool{}
	for _, d := range due {
		if !d.issue {
			taken[d.number] = true
		}
	}
	runs := map[int][]string{}
	var prs []int
	for _, e := range state.ReadIndex(snap.State, snap.Viewer).Index.Runs {
		n, ok := subjectNumber(e, repo)
		if !ok || taken[n] || e.CommentClaim() || !waitsForReviews(e.Status) {
			continue
		}
		if runs[n] == nil {
			prs = append(prs, n)
		}
		runs[n] = append(runs[n], e.Run)
	}
	if len(prs) == 0 {
		return due
	}
	reviewed, err := client.ReviewedSince(ctx, snap.State.Name, prs)
	if err != nil {
		r.act.Warningf("pipeline-action: sweep: %v; reviews given since are looked for by the next sweep", err)
	}
	for _, n := range prs {
		if at, ok := reviewed[n]; ok {
			due = append(due, dueSubject{number: n, at: at, runs: append(runs[n], "reviewed since its state was written"), reviewed: true})
		}
	}
	sort.SliceStable(due, func(i, j int) bool {
		if !due[i].at.Equal(due[j].at) {
			return due[i].at.Before(due[j].at)
		}
		return due[i].number < due[j].number
	})
	return due
}

// waitsForReviews: a run in status s may be moved by a review. An escalated run waits for
// a command, which comes as its own event.
func waitsForReviews(s model.RunStatus) bool {
	return !s.Final() && s != model.RunEscalated
}
