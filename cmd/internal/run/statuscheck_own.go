package run

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
)

// Anyone who may write commit statuses (a token of another workflow, an app, a person
// with write access) can set `pipeline-action/<pipeline>` on a head, and branch
// protection takes it for the pipeline's verdict. The status event of such a context is
// therefore checked at once rather than dropped: one read of the pull request (the query
// every run makes), and one write only when the status is not what the state asks for.
//
// The action's own writes come back as such events too when it runs with an app's token
// (GITHUB_TOKEN starts no workflow). To end there, a status is written only when both the
// event's status and the head's latest differ from what the state asks for: the echo of
// the action's write carries what the state asked for, so it costs the read and no write,
// whatever another pull request sharing the head wrote meanwhile. Only the state (success,
// pending, failure, error) is compared: it is what branch protection reads, and the
// description follows from it.

// ownStatus is a status event of a context the action writes.
type ownStatus struct {
	Context, State string
	// Hint is the pull request its target URL names (the action links a status to the
	// state comment, .../pull/N#issuecomment-…, or to the pull request before the state
	// comment is bound); 0 when it names none. A hint only: whoever
	// wrote the status chose the URL, so the pull request's head must be the commit.
	Hint int
}

var statusLink = regexp.MustCompile(`/([^/]+/[^/]+)/pull/([0-9]+)(#issuecomment-[0-9]+)?$`)

// statusHint is the pull request of repo that target links to, 0 for none.
func statusHint(target, repo string) int {
	m := statusLink.FindStringSubmatch(target)
	if m == nil || !strings.EqualFold(m[1], repo) {
		return 0
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return 0
	}
	return n
}

// checkOwnStatus handles a status event of the action's own context: on each open pull
// request whose head is its commit (the one its link names first, read alone when its
// head is the commit), the status is set back to what the state asks for when it differs.
func (r *Runner) checkOwnStatus(ctx context.Context, client *ghapi.Client, ev routed) int {
	if n := ev.OwnStatus.Hint; n > 0 {
		head, err := r.correctStatus(ctx, client, ev, n)
		if err != nil && notAPullRequest(err) { // whoever wrote the status chose its link
			head, err = false, nil
		}
		if err != nil {
			r.act.Errorf("%s#%d: %v", ev.Repo, n, err)
			return 1
		}
		if head {
			return 0
		}
	}
	numbers, err := client.OpenPRsForCommit(ctx, ev.SHA, ghapi.CommitHead{})
	if err != nil {
		r.act.Errorf("%v", err)
		return 1
	}
	code := 0
	for _, n := range numbers {
		if n == ev.OwnStatus.Hint {
			continue
		}
		if _, err := r.correctStatus(ctx, client, ev, n); err != nil {
			r.act.Errorf("%s#%d: %v", ev.Repo, n, err)
			code = 1
		}
	}
	return code
}

// correctStatus reads pull request n and, when its head is the event's commit (head),
// writes the event's context as the state asks for if neither the event nor the head
// shows that.
func (r *Runner) correctStatus(ctx context.Context, client *ghapi.Client, ev routed, n int) (head bool, err error) {
	rd := &reading{path: r.configPath()}
	if err := r.readConfig(ctx, client, ev, n, &attempt{stateBranch: lang.DefaultStateBranch}, rd); err != nil || rd.cfg == nil {
		return false, err
	}
	pr := rd.snap.Facts.PR
	if pr == nil || pr.State != "open" || pr.HeadSHA != ev.SHA {
		return false, nil
	}
	want, ok := wantedStatus(rd.cfg, ev.OwnStatus.Context)
	if !ok {
		r.act.Infof("pipeline-action: #%d: %s names no pipeline of the config, or settings.status_check is off: not the action's; left alone", n, ev.OwnStatus.Context)
		return true, nil
	}
	info := func(f string, args ...any) { r.act.Infof("pipeline-action: "+f, args...) }
	warn := func(f string, args ...any) { r.act.Warningf("pipeline-action: #%d: "+f, append([]any{n}, args...)...) }
	subject := rd.snap.Facts.Repo + "#" + strconv.Itoa(n)
	_, st, ver, _, err := r.loadState(ctx, client, rd.cfg, rd.snap, n, subject, info, warn)
	if err != nil {
		return true, err
	}
	for _, s := range wantedStatuses(st, pr.HeadSHA) {
		if s.context == want.context {
			want = s
		}
	}
	switch {
	case strings.EqualFold(ev.OwnStatus.State, want.state):
		r.act.Infof("pipeline-action: #%d: commit status %s is %s, as the state asks: nothing to do", n, want.context, ev.OwnStatus.State)
		return true, nil
	case rd.snap.Statuses[want.context] == want.state:
		r.act.Infof("pipeline-action: #%d: commit status %s was set to %s, and is %s again already", n, want.context, ev.OwnStatus.State, want.state)
		return true, nil
	}
	r.act.Warningf("pipeline-action: #%d: commit status %s was set to %s by %s, not by this action's state: set back to %s", n, want.context, ev.OwnStatus.State, ev.Actor, want.state)
	if r.dry != nil {
		r.act.Infof("pipeline-action: dry run: would write the commit status %s %s on #%d", want.context, want.state, n)
		return true, nil
	}
	return true, r.writeStatus(ctx, client, rd, want, ver.CommentID)
}

// wantedStatus is the status of context for a pipeline of cfg that has no run on the
// head: pending, as a required check no run has written is; false when context is not
// one the action writes under cfg.
func wantedStatus(cfg *lang.Config, context string) (commitStatus, bool) {
	if !cfg.Settings.StatusCheck {
		return commitStatus{}, false
	}
	name := strings.TrimPrefix(context, ghapi.StatusPrefix)
	for _, p := range cfg.Pipelines {
		if p.Name == name {
			return commitStatus{context: context, state: "pending", description: "no run on this commit"}, true
		}
	}
	return commitStatus{}, false
}
