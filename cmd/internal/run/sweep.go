package run

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

const SweepUsage = `usage: pipeline-action sweep

Advances the runs whose deadline has passed (a stage's timeout, the end of a delay, a
poll, a reminder) when no event comes for them, and the pull requests reviewed since
their state was written (a review event the workflow skipped). It reads the index of open
runs on the state branch with the config in one GraphQL query (and, when runs wait, their
pull requests' newest reviews in one more), then handles the subjects whose runs are due,
oldest first, as an event for each would: at most sweep_budget
subjects (default 20) and sweep_writes content writes (REST writes and GraphQL
mutations, default 60, at most 500) per sweep, at most 80 content writes a minute
(GitHub's secondary limits), and at most 240 content writes (or sweep_writes, if higher)
for all sweeps of the last hour, whatever the schedule (each sweep that wrote records its
writes in index/sweeps.json on the state branch); the rest stay due for the next one, and
the job log and summary say which. Run it from a workflow on "schedule:" (and "workflow_dispatch:") with
the action's "command: sweep". It takes no arguments; the inputs arrive as INPUT_TOKEN,
INPUT_CONFIG, INPUT_TIMEOUT, INPUT_REQUEST_TIMEOUT, INPUT_SWEEP_BUDGET,
INPUT_SWEEP_WRITES and INPUT_STATE_KEY (with INPUT_STATE_KEY_PREVIOUS), the repository
as GITHUB_REPOSITORY. With INPUT_DRY_RUN=true it evaluates the subjects due and writes
nothing, saying what it would do.

exit codes: 0 swept (nothing due included), 1 a subject failed or part of the index
could not be read (reported in the job log), 2 bad environment
`

// defaultSweepBudget is how many subjects one sweep advances at most (the sweep_budget
// input): each costs about one query and one commit, like an event.
const defaultSweepBudget = 20

// SweepEvent is the engine's name for the evaluation a sweep makes of a subject when
// the workflow was started by neither schedule nor workflow_dispatch.
const SweepEvent = "schedule"

// dueSubject is one subject the sweep may advance.
type dueSubject struct {
	number int
	issue  bool      // an issue's runs (issue-N.json)
	at     time.Time // its runs' earliest deadline
	runs   []string
	// reviewed: given a review since its state was written, and due for nothing else.
	reviewed bool
	// retryAt is when state.RetryFile lists it from; zero when it does not.
	retryAt time.Time
}

// Sweep advances the subjects whose deadlines have passed, oldest first, within the budget.
func (r *Runner) Sweep(ctx context.Context) int {
	var budget sweepBudget
	prepare := func() (routed, int) {
		ev, err := r.sweepEvent()
		if err != nil {
			r.act.Errorf("%v", err)
			return ev, 2
		}
		if budget, err = parseSweepBudget(r.act.GetInput); err != nil {
			r.act.Errorf("%v", err)
			return ev, 2
		}
		return ev, proceed
	}
	return r.invoke(ctx, prepare, func(ctx context.Context, client *ghapi.Client, ev routed) int {
		w, code := r.indexWork(ctx, client, ev, "sweep")
		if w == nil {
			return code
		}
		return w.sweep(ctx, budget)
	})
}

// sweep advances, within budget, the subjects of the repository whose deadlines have passed.
func (w *indexed) sweep(ctx context.Context, budget sweepBudget) int {
	r, client, ev, snap, code := w.Runner, w.client, w.ev, w.snap, 0
	due, later, ok := r.dueSubjects(snap, ev.Repo)
	due = r.reviewedSubjects(ctx, client, snap, ev.Repo, due)
	if !ok {
		code = 1 // reported; what could be read is swept
	}
	budget = budget.withinHour(r.sweepLog(snap.State, snap.Viewer), r.Now())
	var p sweepPass
	if len(due) == 0 {
		msg := "no run is due"
		if !later.IsZero() {
			msg += "; the next deadline is " + later.UTC().Format(time.RFC3339)
		}
		r.act.Infof("pipeline-action: sweep: %s", msg)
	} else {
		r.act.Infof("pipeline-action: sweep: %d %s due; advancing up to %d (sweep_budget %d) with up to %d content writes (sweep_writes %d; the last hour's sweeps made %d of %d an hour), oldest deadline first",
			len(due), Plural(len(due), "subject is", "subjects are"), min(budget.subjects, len(due)), budget.subjects,
			max(0, min(budget.writes, budget.hourLeft)), budget.writes, budget.hourSpent, budget.perHour)
		p = r.advance(ctx, client, ev, due, budget)
	}
	p.writes += w.sweepUpToDate(ctx, budget, &p)
	if p.failed {
		code = 1
	}
	if (p.writes > 0 || len(p.retried) > 0) && r.dry == nil {
		if err := r.recordSweep(ctx, client, snap.State.Name, snap.Viewer, p.writes, p.retried); err != nil {
			r.act.Errorf("sweep: recording its %d content writes for the next sweeps of the hour: %v", p.writes, err)
			code = 1
		}
	}
	if len(due) == 0 {
		return code
	}
	r.summarize(p, budget)
	r.report(client, p.results)
	return code
}

// indexed is an invocation that works from the index of open runs (a sweep, a push to a
// base branch): the config on the default branch and the index it read.
type indexed struct {
	*Runner
	client *ghapi.Client
	ev     routed // its DefaultBranch the repository's, as read
	snap   *ghapi.SweepSnapshot
	cfg    *lang.Config
}

// indexWork reads the config on the default branch and the index of open runs on the state
// branch it names, for what (the sweep, a push). It is nil when there is nothing to do, code
// saying how that went (reported).
func (r *Runner) indexWork(ctx context.Context, client *ghapi.Client, ev routed, what string) (*indexed, int) {
	path := r.configPath()
	snap, err := client.SweepState(ctx, ev.DefaultBranch, path, lang.DefaultStateBranch)
	if err != nil {
		r.act.Errorf("%v", err)
		return nil, 1
	}
	if snap.Config == nil {
		r.act.Infof("pipeline-action: %s: no %s on %s; nothing to do", what, ConfigWhere(path), snap.DefaultBranch)
		return nil, 0
	}
	cfg, err := LoadConfig(snap.Config)
	if err != nil {
		r.annotate(err)
		r.act.Errorf("%s: the config on %s is invalid; nothing was done", what, snap.DefaultBranch)
		return nil, 1
	}
	if b := cfg.Settings.StateBranch; b != "" && b != lang.DefaultStateBranch {
		if snap, err = client.SweepState(ctx, ev.DefaultBranch, path, b); err != nil {
			r.act.Errorf("%v", err)
			return nil, 1
		}
	}
	ev.DefaultBranch = snap.DefaultBranch
	return &indexed{Runner: r, client: client, ev: ev, snap: snap, cfg: cfg}, 0
}

// sweepEvent is what the sweep knows of the workflow that started it: the repository,
// its default branch and who started it.
func (r *Runner) sweepEvent() (routed, error) {
	ev := routed{Handled: true, Event: SweepEvent, Repo: r.Getenv("GITHUB_REPOSITORY")}
	name := r.Getenv("GITHUB_EVENT_NAME")
	if name == "schedule" || name == "workflow_dispatch" {
		ev.Event = name
	}
	if path := r.Getenv("GITHUB_EVENT_PATH"); path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			return ev, fmt.Errorf("reading the event: %w", err)
		}
		var p payload
		if err := json.Unmarshal(raw, &p); err != nil {
			return ev, fmt.Errorf("reading the %s payload: %w", name, err)
		}
		if p.Repository != nil {
			if ev.Repo == "" {
				ev.Repo = p.Repository.FullName
			}
			ev.DefaultBranch = p.Repository.DefaultBranch
		}
		if p.Sender != nil {
			ev.Actor = p.Sender.Login
		}
	}
	if ev.DefaultBranch == "" && name == "schedule" {
		// A schedule runs on the default branch: GITHUB_REF_NAME names it.
		ev.DefaultBranch = r.Getenv("GITHUB_REF_NAME")
	}
	switch {
	case ev.Repo == "":
		return ev, fmt.Errorf("GITHUB_REPOSITORY must be set (run inside GitHub Actions)")
	case ev.DefaultBranch == "":
		return ev, fmt.Errorf("the default branch is unknown: the %q payload names none (run the sweep on schedule or workflow_dispatch)", name)
	}
	return ev, nil
}

// dueSubjects reads the index and returns the subjects with a run whose deadline has
// passed, oldest deadline first, and the earliest deadline still ahead (zero if none).
// ok is false when part of the index cannot be read (reported): the rest is swept.
func (r *Runner) dueSubjects(snap *ghapi.SweepSnapshot, repo string) (due []dueSubject, later time.Time, ok bool) {
	if !snap.State.Exists {
		return nil, time.Time{}, true
	}
	// Whoever can push to the branch could list any subject in the index: only what the
	// action wrote is swept. The next event of each subject lists it anew.
	read := state.ReadIndex(snap.State, snap.Viewer)
	for _, w := range read.Warnings {
		r.act.Warningf("pipeline-action: sweep: %s", w)
	}
	for _, e := range read.Errors {
		r.act.Errorf("sweep: %s", e)
	}
	idx := read.Index
	now := r.Now()
	bySubject := map[int]*dueSubject{}
	for _, e := range idx.Runs {
		if e.NextDeadline.IsZero() {
			continue
		}
		if e.NextDeadline.After(now) {
			if later.IsZero() || e.NextDeadline.Before(later) {
				later = e.NextDeadline
			}
			continue
		}
		n, ok := subjectNumber(e, repo)
		issue := false
		if !ok {
			n, ok = issueSubjectNumber(e, repo)
			issue = ok
		}
		if !ok {
			r.act.Warningf("pipeline-action: sweep: index entry of run %q names %q in %q, not a pull request or an issue of %s; skipped",
				OneLine(e.Run), OneLine(e.Subject), OneLine(e.File), repo)
			continue
		}
		d := bySubject[n]
		if d == nil {
			d = &dueSubject{number: n, issue: issue, at: e.NextDeadline}
			bySubject[n] = d
		}
		if e.NextDeadline.Before(d.at) {
			d.at = e.NextDeadline
		}
		if e.CommentClaim() {
			d.runs = append(d.runs, "the state comment")
		} else {
			d.runs = append(d.runs, e.Run)
		}
	}
	r.retrySubjects(snap.State, snap.Viewer, bySubject, &later)
	for _, d := range bySubject {
		due = append(due, *d)
	}
	sort.Slice(due, func(i, j int) bool {
		if !due[i].at.Equal(due[j].at) {
			return due[i].at.Before(due[j].at)
		}
		return due[i].number < due[j].number
	})
	return due, later, len(read.Errors) == 0
}

// subjectNumber is the pull request number an index entry is about, when its subject is
// a pull request of repo kept in that pull request's file.
func subjectNumber(e state.IndexEntry, repo string) (int, bool) {
	i := strings.LastIndexByte(e.Subject, '#')
	if i < 0 || !strings.EqualFold(e.Subject[:i], repo) {
		return 0, false
	}
	n, err := strconv.Atoi(e.Subject[i+1:])
	if err != nil || n <= 0 || e.File != state.SubjectFile(true, n) {
		return 0, false
	}
	return n, true
}

// SweepMain is the sweep command run by r.
func (r *Runner) SweepMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	rest, code, ok := ParseFlags(NewFlagSet("sweep", stderr), SweepUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "pipeline-action sweep: takes no arguments, got %q\n\n%s", rest, SweepUsage)
		return 2
	}
	return r.Sweep(ctx)
}
