package run

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// Issues as subjects (`scope: issue` pipelines), and the pull requests their runs follow.
//
//   - An issue's invocation reads the issue, its state (issue-N.json, and its state comment
//     on the issue) and the pull requests its runs follow in one query (ghapi.SnapshotIssue);
//     pull requests its state names that the caller did not know of are read in one more
//     query (ReadPRs), as are none when it names none.
//   - A report's outputs.pr is read in the first query, so that the engine can check the
//     pull request before associating it; a number that is not a pull request fails that
//     query as GitHub fails it, and it is read again without it (the engine then refuses
//     the association).
//   - When a run gains a pull request, the pull request's own state records the follower
//     (State.Followers, "followed by run R of #M" on its state comment): one invocation of
//     the pull request's read-evaluate-write.
//   - An event on a pull request that has followers then evaluates each following issue
//     too: one query more per issue (the pull request is known, so it is read in it).

// snapshot reads the subject of one round: a pull request's, or an issue's.
func (r *Runner) snapshot(ctx context.Context, client *ghapi.Client, ev routed, number int, path string, a *attempt) (*ghapi.Snapshot, error) {
	if !ev.Issue && !a.issue {
		snap, err := client.SnapshotState(ctx, number, ev.DefaultBranch, path, a.stateBranch)
		if err == nil || (ev.Report == nil && ev.AgentFailure == nil && ev.Pipeline == "") || !notAPullRequest(err) {
			return snap, err
		}
		// A report, or the end of an agent's workflow run, of an issue's run: its run id
		// names the issue; a workflow_dispatch's number may name an issue.
		r.act.Infof("pipeline-action: #%d is not a pull request; reading it as an issue", number)
		a.issue = true
	}
	a.issue = true
	prs := append([]int(nil), ev.follow...)
	reported := reportPR(ev.Report)
	if reported > 0 {
		prs = append(prs, reported)
	}
	snap, err := client.SnapshotIssueWith(ctx, number, prs, ev.followRefs, ev.DefaultBranch, path, a.stateBranch)
	if err != nil && reported > 0 && notAPullRequest(err) {
		r.act.Infof("pipeline-action: #%d: the report's outputs.pr #%d is not a pull request of %s (in a multi-pr run, it may be one of its stage's config.repo: read next)", number, reported, ev.Repo)
		snap, err = client.SnapshotIssueWith(ctx, number, ev.follow, ev.followRefs, ev.DefaultBranch, path, a.stateBranch)
	}
	if err != nil {
		return nil, err
	}
	for _, w := range snap.Warnings {
		r.act.Warningf("pipeline-action: %s", w)
	}
	return snap, nil
}

// notAPullRequest reports whether err is GitHub's answer to a number that is no pull request.
func notAPullRequest(err error) bool {
	return strings.Contains(err.Error(), "Could not resolve to a PullRequest")
}

// reportPR is the pull request a report's outputs.pr names, or 0.
func reportPR(rep *engine.Report) int {
	if rep == nil || rep.Outputs == nil {
		return 0
	}
	switch v := rep.Outputs["pr"].(type) {
	case float64:
		if v > 0 && v < 1<<31 && v == float64(int(v)) {
			return int(v)
		}
	case int:
		return v
	case string:
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(v), "#"), "%d", &n); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// saved records what the state just saved asks of other subjects.
func (a *attempt) saved(before, after *engine.State) {
	a.followers = append([]engine.Follower(nil), after.Followers...)
	if a.issue {
		a.associated = engine.NewAssociations(before, after)
		a.refs = engine.NewRefAssociations(before, after)
	}
}

// follow carries the event on to the subjects the saved state names: the pull requests an
// issue's run gained (their states record the follower), or the issues whose runs follow
// this pull request (they are evaluated on the same event).
func (r *Runner) follow(ctx context.Context, client *ghapi.Client, ev routed, number int, key string, a *attempt) error {
	if ev.follower != nil {
		return nil // recording a follower: the issue is being evaluated already
	}
	errs := r.followRefs(ctx, client, ev, number, key, a)
	if a.issue {
		prs := make([]int, 0, len(a.associated))
		for n := range a.associated {
			prs = append(prs, n)
		}
		sort.Ints(prs)
		for _, n := range prs {
			for _, f := range a.associated[n] {
				next := routed{Handled: true, Event: ev.Event, Repo: ev.Repo, DefaultBranch: ev.DefaultBranch, Actor: ev.Actor}
				fl := f
				next.follower = &fl
				r.act.Infof("pipeline-action: #%d: run %s follows #%d; recording it on #%d", number, f.Run, n, n)
				if _, err := r.subject(ctx, client, next, n, key+"/follow"); err != nil {
					errs = append(errs, fmt.Sprintf("#%d: recording that run %s follows it: %v", n, f.Run, err))
				}
			}
		}
	} else {
		seen := map[int]bool{}
		for _, f := range a.followers {
			if seen[f.Issue] || f.Issue == number || f.Repo != "" { // another repository's: a multi-PR run's
				continue
			}
			seen[f.Issue] = true
			next := routed{Handled: true, Event: ev.Event, Repo: ev.Repo, DefaultBranch: ev.DefaultBranch, Actor: ev.Actor,
				Issue: true, follow: []int{number}}
			r.act.Infof("pipeline-action: #%d is followed by run %s of #%d; evaluating #%d", number, f.Run, f.Issue, f.Issue)
			if _, err := r.subject(ctx, client, next, f.Issue, key); err != nil {
				errs = append(errs, fmt.Sprintf("#%d (following #%d): %v", f.Issue, number, err))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// applyToIssueFacts is applyToFacts for an issue's invocation: a merge or a label on one of
// its pull requests, or a label on the issue.
func applyToIssueFacts(f *engine.Facts, e engine.Effect) {
	if e.Repo != "" { // a pull request of another repository
		applyToOtherFacts(f, e)
		return
	}
	if pr := f.PRs[e.Number]; pr != nil {
		applyToPR(pr, e)
		return
	}
	is := f.Issue
	if is == nil || e.Number != is.Number {
		return
	}
	if e.Kind == engine.EffectCloseIssue { // the subject issue itself: it is done
		is.State = engine.IssueClosed
		return
	}
	view := &engine.PullRequest{Number: is.Number, Labels: is.Labels}
	applyToPR(view, e)
	is.Labels = view.Labels
}

// issueExtraFacts reads for the open pull requests of an issue's runs what only some checks
// need (extraFacts): how far behind its base each is, the paths file_exists names, and the
// `command` checks' results — which run only on a pull request whose head the workspace
// holds (runCommands checks it), as in a pull request's own run.
func issueExtraFacts(ctx context.Context, client *ghapi.Client, cfg *lang.Config, f *engine.Facts, workspace string) error {
	if f.Issue == nil {
		return nil
	}
	for _, n := range sortedPRs(f) {
		pr := f.PRs[n]
		if pr.State != engine.PROpen {
			continue
		}
		g := *f
		g.PR, g.Issue = pr, nil
		if err := extraFacts(ctx, client, cfg, &g, workspace); err != nil {
			return err
		}
	}
	return nil
}

// readIssueFilesIfNeeded is readFilesIfNeeded for the pull requests of an issue's runs.
func readIssueFilesIfNeeded(ctx context.Context, client *ghapi.Client, res engine.Result, f *engine.Facts) (bool, error) {
	if !res.NeedsFiles {
		return false, nil
	}
	read := false
	for _, n := range sortedPRs(f) {
		pr := f.PRs[n]
		if pr.FilesRead {
			continue
		}
		files, truncated, err := client.ChangedFiles(ctx, n)
		if err != nil {
			return false, err
		}
		pr.Files, pr.FilesRead, pr.FilesTruncated = files, true, truncated
		read = true
	}
	return read, nil
}

func sortedPRs(f *engine.Facts) []int {
	out := make([]int, 0, len(f.PRs))
	for n := range f.PRs {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}

// issueSubjectNumber is subjectNumber for an index entry of an issue's runs, kept in the
// issue's file (issue-N.json).
func issueSubjectNumber(e state.IndexEntry, repo string) (int, bool) {
	i := strings.LastIndexByte(e.Subject, '#')
	if i < 0 || !strings.EqualFold(e.Subject[:i], repo) {
		return 0, false
	}
	n, err := strconv.Atoi(e.Subject[i+1:])
	if err != nil || n <= 0 || e.File != state.SubjectFile(false, n) {
		return 0, false
	}
	return n, true
}
