package run

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
)

// A pipeline with keep_up_to_date has its pull requests brought up to date as soon as their
// base moves, not only when their merge comes. Updating every behind pull request on every
// push would rerun CI on all of them for each merge, and all but one would be behind again
// after the next: so on each base one pull request at a time is kept up to date, the one
// closest to merging (its run furthest along its pipeline's stages; then the oldest pull
// request). While it is up to date it goes first and no other is touched; once it merges,
// the base moves and the next one is brought up. A front that cannot be updated (a draft,
// a conflict) does not hold the others back.
//
// The update is the same call merge_pr's when_behind makes, expecting the head read: a head
// pushed meanwhile is refused and left to the next push. Its push starts the pull request's
// CI and its synchronize event, and the run goes back to its gates as for any push. What
// runs are open and where they stand is read from the index of open runs the action wrote.

// upToDateRun is one pull request whose run keeps it up to date.
type upToDateRun struct {
	number int
	run    string
	method string // lang.UpdateMerge | lang.UpdateRebase
	// at is how far its run is: the position of its stage among its pipeline's stages.
	at int
}

// keptUpToDate are the pull requests of repo whose open runs keep them up to date, closest
// to merging first: one entry per pull request, its furthest run's.
func keptUpToDate(cfg *lang.Config, idx *state.Index, repo string) []upToDateRun {
	best := map[int]upToDateRun{}
	for _, e := range idx.Runs {
		p := cfg.Pipeline(e.Pipeline)
		n, ok := subjectNumber(e, repo)
		if p == nil || p.KeepUpToDate == nil || !ok || e.CommentClaim() || e.Status.Final() || e.Status == model.RunEscalated {
			continue
		}
		at := slices.IndexFunc(p.Stages, func(s *lang.Stage) bool { return s.ID == e.Stage })
		c := upToDateRun{number: n, run: e.Run, method: p.KeepUpToDate.Method, at: at}
		if b, seen := best[n]; !seen || c.at > b.at {
			best[n] = c
		}
	}
	out := make([]upToDateRun, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].at != out[j].at {
			return out[i].at > out[j].at
		}
		return out[i].number < out[j].number
	})
	return out
}

// keepUpToDate brings, of the open runs idx lists, on each base of bases (every base, when
// nil), the pull request closest to merging up to date when it is behind, asking GitHub at
// most most times (no bound when most < 0: a push moves one base). It reports what it did
// in the job log and returns the updates it asked for (content writes, refused or not);
// failed says a read or an update failed (reported).
func (w *indexed) keepUpToDate(ctx context.Context, idx *state.Index, bases []string, most int) (writes int, failed bool) {
	r, client := w.Runner, w.client
	runs := keptUpToDate(w.cfg, idx, w.ev.Repo)
	if len(runs) == 0 {
		r.act.Infof("pipeline-action: keep_up_to_date: no open run keeps its pull request up to date")
		return 0, false
	}
	numbers := make([]int, len(runs))
	for i, c := range runs {
		numbers[i] = c.number
	}
	prs, err := client.BranchStates(ctx, numbers)
	if err != nil {
		r.act.Errorf("keep_up_to_date: %v; the next push or sweep tries again", err)
		return 0, true
	}
	byNumber := map[int]ghapi.BranchState{}
	for _, pr := range prs {
		byNumber[pr.Number] = pr
	}
	done := map[string]bool{}
	for _, c := range runs {
		pr, ok := byNumber[c.number]
		if !ok || !pr.Open || done[pr.Base] || bases != nil && !slices.Contains(bases, pr.Base) {
			continue
		}
		if pr.Queued { // the queue tests it on the base itself; a push would take it out
			r.act.Infof("pipeline-action: keep_up_to_date: #%d, closest to merging into %s, is in its merge queue; it goes first, and no other pull request is updated", pr.Number, pr.Base)
			done[pr.Base] = true
			continue
		}
		if why := passedOver(pr); why != "" {
			r.act.Infof("pipeline-action: keep_up_to_date: #%d is closest to merging into %s but is %s; the next one is looked at", pr.Number, pr.Base, why)
			continue
		}
		if writes == most {
			r.act.Infof("pipeline-action: keep_up_to_date: %s and the bases after it are left to the next push or sweep: no content write is left to this one", pr.Base)
			break
		}
		asked, bad, refused := w.bringUp(ctx, c, pr)
		failed, done[pr.Base] = failed || bad, !refused
		if asked {
			writes++
		}
	}
	return writes, failed
}

// passedOver says why pr, though closest to merging, is not brought up to date, or "".
func passedOver(pr ghapi.BranchState) string {
	switch {
	case pr.Draft:
		return "a draft"
	case pr.Conflicting:
		return "in conflict with it"
	case pr.Locked:
		return "a fork's branch its author lets no maintainer edit"
	}
	return ""
}

// bringUp brings pr, the front of its base, up to date when it is behind; asked says it
// asked GitHub to. refused says GitHub refused it for good (a fork the token may not push
// to, a conflict): the next pull request of the base is looked at.
func (w *indexed) bringUp(ctx context.Context, c upToDateRun, pr ghapi.BranchState) (asked, failed, refused bool) {
	r, client := w.Runner, w.client
	behind, err := client.BehindBy(ctx, pr.Base, pr.HeadSHA)
	switch {
	case err != nil:
		r.act.Errorf("keep_up_to_date: %v; the next push or sweep tries again", err)
		return false, true, false
	case behind == 0:
		r.act.Infof("pipeline-action: keep_up_to_date: #%d, closest to merging into %s, is up to date with it; it goes first, and no other pull request is updated",
			pr.Number, pr.Base)
		return false, false, false
	case w.snap.ActionsToken:
		r.act.Warningf("pipeline-action: keep_up_to_date: #%d is %d %s behind %s, but the action runs with the workflow's GITHUB_TOKEN, and GitHub starts no workflow for a commit that token pushes: "+
			"CI would never run on the updated head. Give the action a GitHub App's token (the `token` input, docs/tokens.md)",
			pr.Number, behind, Plural(behind, "commit", "commits"), pr.Base)
		return false, false, false
	}
	e := model.Effect{Key: fmt.Sprintf("%s/keep_up_to_date/%s", c.run, model.Short(pr.HeadSHA)), Run: c.run, Kind: model.EffectUpdateBranch,
		Number: pr.Number, SHA: pr.HeadSHA, Method: c.method}
	if r.dry != nil {
		r.act.Infof("pipeline-action: dry run: keep_up_to_date: would %s (%d %s behind %s, closest to merging into it)",
			EffectText(e), behind, Plural(behind, "commit", "commits"), pr.Base)
		return false, false, false
	}
	o := client.Perform(ctx, e)
	if o.HeadMoved { // another invocation's update, or a push: the run sees the new head
		r.act.Infof("pipeline-action: keep_up_to_date: the head of #%d moved since it was read (another update, or a push); nothing to do", pr.Number)
		return true, false, false
	}
	if o.Err != "" {
		msg := fmt.Sprintf("keep_up_to_date: bringing #%d up to date with %s: %s", pr.Number, pr.Base, strings.TrimSpace(o.Err))
		if o.Permanent || o.Escalate { // the same refusal on every push: its run meets it at the merge
			r.act.Warningf("pipeline-action: %s; the next pull request into %s is looked at", msg, pr.Base)
			return true, false, true
		}
		r.act.Errorf("%s; the next push or sweep tries again", msg)
		return true, true, false
	}
	r.act.Infof("pipeline-action: keep_up_to_date: #%d was %d %s behind %s and is closest to merging into it: brought up to date (%s); its CI runs on the new head",
		pr.Number, behind, Plural(behind, "commit", "commits"), pr.Base, c.method)
	return true, false, false
}

// pushed handles a push to a branch: the pull requests kept up to date whose base it is.
func (w *indexed) pushed(ctx context.Context) int {
	if !w.cfg.KeepsUpToDate() {
		w.act.Infof("pipeline-action: push to %s: no pipeline keeps its pull requests up to date (keep_up_to_date); nothing to do", w.ev.Pushed)
		return 0
	}
	// Only what the action wrote is read: anyone who can push to the branch could list any
	// pull request in the index.
	read := state.ReadIndex(w.snap.State, w.snap.Viewer)
	for _, msg := range read.Warnings {
		w.act.Warningf("pipeline-action: push to %s: %s", w.ev.Pushed, msg)
	}
	for _, msg := range read.Errors {
		w.act.Errorf("push to %s: %s", w.ev.Pushed, msg)
	}
	if _, failed := w.keepUpToDate(ctx, read.Index, []string{w.ev.Pushed}, -1); failed || len(read.Errors) > 0 {
		return 1
	}
	return 0
}

// sweepUpToDate is keep_up_to_date in a sweep, for a push that reached no invocation (GitHub
// lost it, or the workflow skipped it): every base's front is brought up to date when
// behind, while the sweep's content writes allow. It returns the content writes it made.
func (w *indexed) sweepUpToDate(ctx context.Context, b sweepBudget, p *sweepPass) int {
	if !w.cfg.KeepsUpToDate() {
		return 0
	}
	left := b.writes - b.reserve - p.writes
	if b.perHour > 0 {
		left = min(left, b.hourLeft-b.reserve-p.writes)
	}
	if left <= 0 {
		w.act.Infof("pipeline-action: sweep: keep_up_to_date left to the next sweep: no content write is left to this one")
		return 0
	}
	// The sweep reported what of the index it could not read.
	n, failed := w.keepUpToDate(ctx, state.ReadIndex(w.snap.State, w.snap.Viewer).Index, nil, left)
	p.failed = p.failed || failed
	return n
}
