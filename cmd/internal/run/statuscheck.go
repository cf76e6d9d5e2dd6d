package run

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// With settings.status_check, each pipeline that runs on a pull request keeps a commit
// status `pipeline-action/<pipeline>` on its head, so that branch protection can require
// the pipeline as it requires CI. A status is written with the state, and only when the
// head does not already show it: the facts query reads the head's statuses anyway
// (ghapi.Snapshot.Statuses), so an event that changes nothing costs no call, and a new
// head, which shows none, gets every status again.

// commitStatus is the status a pipeline's latest run asks for on the head.
type commitStatus struct {
	context, state, description string
}

// wantedStatuses are the statuses the runs of st ask for on head: one per pipeline, from
// its latest run that is no sub-pipeline's child. A run that ended on another head says
// nothing about this one: pending, until a run goes over it.
func wantedStatuses(st *model.State, head string) []commitStatus {
	latest := map[string]*model.Run{}
	for _, run := range st.Runs {
		if run == nil || run.Parent != "" {
			continue
		}
		if l := latest[run.Pipeline]; l == nil || !run.StartedAt.Before(l.StartedAt) {
			latest[run.Pipeline] = run
		}
	}
	out := make([]commitStatus, 0, len(latest))
	for name, run := range latest {
		s := commitStatus{context: ghapi.StatusPrefix + name, state: "pending", description: "not finished on this commit"}
		switch {
		case run.Status.Final() && run.Head != "" && run.Head != head:
			s.description = "ended on " + run.Head[:min(7, len(run.Head))] + "; not run on this commit"
		case run.Status == model.RunCompleted:
			s.state, s.description = "success", "completed"
		case run.Status == model.RunFailed:
			s.state, s.description = "failure", "failed at "+run.Stage+reasonOf(run.Message)
		case run.Status == model.RunCancelled:
			s.state, s.description = "error", "cancelled at "+run.Stage+reasonOf(run.Message)
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].context < out[j].context })
	return out
}

// reasonOf is ": " and the first line of why a run ended, or "".
func reasonOf(message string) string {
	message, _, _ = strings.Cut(message, "\n")
	if message == "" {
		return ""
	}
	return ": " + message
}

// writeStatuses writes on the pull request's head the statuses st asks for that the head
// does not show yet, when the config asks for them (settings.status_check). commentID is
// the state comment's, for the statuses' link.
func (r *Runner) writeStatuses(ctx context.Context, client *ghapi.Client, rd *reading, st *model.State, commentID int64) error {
	pr := rd.snap.Facts.PR
	if rd.cfg == nil || !rd.cfg.Settings.StatusCheck || pr == nil || pr.HeadSHA == "" {
		return nil
	}
	var errs []error
	for _, s := range wantedStatuses(st, pr.HeadSHA) {
		if rd.snap.Statuses[s.context] == s.state {
			continue
		}
		if err := r.writeStatus(ctx, client, rd, s, commentID); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("settings.status_check: %w; the next event writes it again", errors.Join(errs...))
	}
	return nil
}

// writeStatus writes s on the pull request's head, linking to the state comment.
func (r *Runner) writeStatus(ctx context.Context, client *ghapi.Client, rd *reading, s commitStatus, commentID int64) error {
	pr := rd.snap.Facts.PR
	err := client.CreateStatus(ctx, ghapi.Status{SHA: pr.HeadSHA, Context: s.context, State: s.state,
		Description: s.description, TargetURL: r.commentURL(rd.snap.Facts.Repo, pr.Number, commentID)})
	if err == nil {
		r.act.Infof("pipeline-action: #%d: commit status %s is %s on %s", pr.Number, s.context, s.state, pr.HeadSHA[:min(7, len(pr.HeadSHA))])
	}
	return err
}

// commentURL is the address of the state comment on GitHub's pages, or of the pull
// request while the state comment is not known: a status's link names the pull request
// either way, which its own status event reads first.
func (r *Runner) commentURL(repo string, number int, commentID int64) string {
	server := strings.TrimRight(r.Getenv("GITHUB_SERVER_URL"), "/")
	if server == "" {
		server = "https://github.com"
	}
	if commentID == 0 {
		return fmt.Sprintf("%s/%s/pull/%d", server, repo, number)
	}
	return fmt.Sprintf("%s/%s/pull/%d#issuecomment-%d", server, repo, number, commentID)
}
