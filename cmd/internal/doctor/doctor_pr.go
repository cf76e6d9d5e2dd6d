package doctor

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/run"
	"github.com/org/pipeline-action/state"
)

// checkPR reads pull request d.pr with the query every run makes (facts, config, comments
// and the state branch), loads its state as a run does, and evaluates it without
// performing anything: the runs it would advance and the effects it would ask for.
func (d *doctor) checkPR(ctx context.Context) {
	n := d.pr
	snap, err := d.client.SnapshotState(ctx, n, d.branch, d.cfgPath, d.cfg.Settings.StateBranch)
	if err != nil {
		d.add(findingProblem, fmt.Sprintf("#%d: the query every run makes fails: %v", n, err), grantFix)
		return
	}
	pr := snap.Facts.PR
	if pr == nil {
		d.add(findingProblem, fmt.Sprintf("#%d is not a pull request of %s/%s", n, d.client.Owner, d.client.Repo), "give --pr a pull request's number")
		return
	}
	d.add(findingOK, fmt.Sprintf("#%d: the query every run makes answers: %s", n, prFacts(pr)), "")
	var warnings []string
	warn := func(f string, args ...any) { warnings = append(warnings, fmt.Sprintf(f, args...)) }
	subject := snap.Facts.Repo + "#" + strconv.Itoa(n)
	branch := state.NewBranchStore(d.client, snap.State, state.SubjectFile(true, n), subject, snap.Viewer, warn)
	store := state.NewDual(branch, state.NewCommentStore(d.client, snap.Comments, warn), warn)
	store.SetKeys(d.keys)
	st, _, err := store.Load(ctx, n) // a read: Load writes nothing
	if err != nil {
		d.add(findingUnverified, fmt.Sprintf("#%d: its state cannot be loaded, so what the pipelines would do is not shown: %v", n, err),
			"with a state_key, give doctor the same key (INPUT_STATE_KEY) to read a signed state")
		return
	}
	for _, w := range warnings {
		d.add(findingUnverified, fmt.Sprintf("#%d: %s", n, w), "")
	}
	d.dryRun(ctx, snap.Facts, st)
}

// prFacts is what a run reads of a pull request, on one line.
func prFacts(pr *model.PullRequest) string {
	var checks, reviews []string
	for _, c := range pr.Checks {
		checks = append(checks, c.Name+"="+c.State)
	}
	for _, r := range pr.Reviews {
		reviews = append(reviews, r.Author+"="+r.State)
	}
	return fmt.Sprintf("%s, head %s at %.7s, base %s, mergeable %s (%s), checks [%s], reviews [%s], labels [%s]",
		pr.State, pr.HeadRef, pr.HeadSHA, pr.BaseRef, orDash(pr.Mergeable), orDash(pr.MergeState),
		strings.Join(checks, ", "), strings.Join(reviews, ", "), strings.Join(pr.Labels, ", "))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// dryRun evaluates the state as an event would, with no trigger: the open runs advance as
// on any event, and no pipeline starts (each says on which event it would). Nothing is
// performed or saved.
func (d *doctor) dryRun(ctx context.Context, f *model.Facts, st *model.State) {
	in := model.Input{Key: "doctor", Event: "doctor", Number: d.pr}
	res, err := run.StepWithPeople(ctx, d.client, d.cfg, st, in, f, time.Now(), func(string, ...any) {})
	if err != nil {
		d.add(findingProblem, fmt.Sprintf("#%d: evaluating its runs: %v", d.pr, err), grantFix)
		return
	}
	running := map[string]bool{}
	for _, r := range res.State.Runs {
		running[r.Pipeline] = true
		d.add(findingOK, fmt.Sprintf("#%d: run %s (%s) would be %s at stage %s", d.pr, r.ID, r.Pipeline, r.Status, orDash(r.Stage)), "")
	}
	for _, p := range d.cfg.Pipelines {
		if !running[p.Name] && p.HasTrigger {
			d.add(findingOK, fmt.Sprintf("#%d: pipeline %s has no run: it starts on %s", d.pr, p.Name, p.Trigger.Event), "")
		}
	}
	if len(res.Effects) == 0 {
		d.add(findingOK, fmt.Sprintf("#%d: no effect would be asked for now", d.pr), "")
	}
	for _, e := range res.Effects {
		d.add(findingOK, fmt.Sprintf("#%d: would ask for %s (%s), not performed", d.pr, e.Kind, e.Key), "")
	}
}
