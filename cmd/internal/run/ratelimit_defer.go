package run

import (
	"context"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/state"
)

// deferToSweep lists subject n for the first sweep after GitHub's rate limit ends, when
// that limit refused the event's handling (err) for longer than the invocation waits: the
// run stays as it was (nothing was performed, or what was is in the state), and the sweep
// then evaluates the subject from the facts as GitHub shows them, as this event would have,
// so that no transition waits for an event that may never come. The list is written
// through REST: when GraphQL's points are spent, REST's requests are another budget.
// It goes on the default state branch, which the sweep reads it from.
func (r *Runner) deferToSweep(ctx context.Context, client *ghapi.Client, ev routed, n int, err error) {
	if r.dry != nil || !ghapi.IsRateLimit(err) {
		return
	}
	at := ghapi.RetryAt(err, r.Now())
	if at.IsZero() {
		at = r.Now().Add(time.Minute) // GitHub's advice when a limit says nothing of when
	}
	s := state.RetrySubject{Number: n, Issue: ev.Issue, At: at}
	if err := client.MarkRetry(ctx, lang.DefaultStateBranch, s); err != nil {
		r.act.Errorf("%s#%d: listing it for the sweep after GitHub's rate limit ends: %v; the next event on it carries on", ev.Repo, n, err)
		return
	}
	r.act.Infof("pipeline-action: #%d: GitHub's rate limit refused this event's work until %s; the first sweep after that evaluates #%d (%s on %s)",
		n, at.UTC().Format(time.RFC3339), n, state.RetryFile, lang.DefaultStateBranch)
}

// retrySubjects adds to bySubject the subjects of the trusted RetryFile of snap whose time
// has passed, and moves later to the earliest still ahead; each keeps when it was listed from, for
// their entries to leave the list once they are advanced.
func (r *Runner) retrySubjects(read state.BranchRead, viewer string, bySubject map[int]*dueSubject, later *time.Time) {
	l := r.retryList(read, viewer)
	if l == nil {
		return
	}
	now := r.Now()
	for _, s := range l.Subjects {
		if s.At.After(now) {
			if later.IsZero() || s.At.Before(*later) {
				*later = s.At
			}
			continue
		}
		d := bySubject[s.Number]
		if d == nil {
			d = &dueSubject{number: s.Number, issue: s.Issue, at: s.At}
			bySubject[s.Number] = d
		}
		d.retryAt = s.At
		d.runs = append(d.runs, "an event GitHub's rate limit refused")
	}
}

// retryList is the trusted RetryFile of read; nil when there is none, on another branch
// than the default state branch, or not the action's own (warned).
func (r *Runner) retryList(read state.BranchRead, viewer string) *state.RetryList {
	f := read.Retry
	if f == nil || read.Name != lang.DefaultStateBranch {
		return nil
	}
	if why := state.TrustFile(f, viewer); why != "" {
		r.act.Warningf("pipeline-action: sweep: the subjects listed after a rate limit are not trusted (%s); left out", why)
		return nil
	}
	l, err := state.DecodeRetryList(f.Text)
	if err != nil {
		r.act.Warningf("pipeline-action: sweep: reading %s on %s: %v; left out", f.Path, read.Name, err)
		return nil
	}
	return l
}
