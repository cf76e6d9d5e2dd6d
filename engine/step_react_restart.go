package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// The `invalidate_and_restart` reaction of on_events: on its event (a push, typically:
// pull_request.synchronize), the approvals, verdicts and outputs of the listed stages
// are marked stale — no longer counted by the approvals ledger, pr_approvals_met, the
// merge guard or expressions — and the run restarts from `restart_from` (a stage id) or,
// with `current`, with a new attempt of the stage it is at.
//
// A push restarts the run whoever pushed; any other event only when it is by someone with
// the chat-ops permission (settings.chatops.permission, default write), so that anyone who
// can comment cannot keep a run from its merge.
//
// Once per event: for a push, once per head commit (a redelivered or repeated
// synchronize for the same head does not restart twice); for other events, once per
// delivery (Input.Key). The key is kept in Run.Applied among the last maxReactionKeys
// of the run's reactions. A finished run is not restarted; an escalated one has its
// approvals marked stale but waits for a person's command.

// StageStale is the status of a stage whose results an invalidate_and_restart reaction
// marked stale (and that the run has not entered again since).
const StageStale StageStatus = "stale"

// Stale records what an invalidate_and_restart reaction took from a stage: when, why,
// the verdict it had (its outputs are dropped: the state stays small), and the approving
// reviews on the pull request then, which do not count for the stage again (a review
// given since does).
type Stale struct {
	At      time.Time `json:"at"`
	Why     string    `json:"why"`
	Verdict string    `json:"verdict,omitempty"`
	SHA     string    `json:"sha,omitempty"`     // the head the verdict was given on
	Reviews []string  `json:"reviews,omitempty"` // reviewKey of each
}

// maxStaleReviews bounds Stale.Reviews (the latest review of each reviewer is what counts).
const maxStaleReviews = 100

// reviewKey names one review: its author, the commit it was given on, and when.
func reviewKey(r Review) string {
	return strings.ToLower(r.Author) + "@" + r.CommitSHA + "@" + r.SubmittedAt.UTC().Format(time.RFC3339Nano)
}

// reactionKey is the key that makes reaction r of run act once for the event of in:
// per head commit for a push, per delivery otherwise.
func (e *eval) reactionKey(run *Run, r *lang.EventReaction, in Input, what string) (key, prefix string) {
	delivery := in.Key
	switch {
	case r.Event == "pull_request.synchronize" && e.facts.PR.HeadSHA != "":
		delivery = r.Event + "@" + e.facts.PR.HeadSHA
	case delivery == "":
		delivery = in.Event + "@" + e.now.UTC().Format("20060102T150405.000000000")
	}
	sum := sha256.Sum256([]byte(delivery))
	prefix = run.ID + "/" + reactOnEvents + "/"
	return prefix + hex.EncodeToString(sum[:6]) + "/" + what, prefix
}

// reactRestart applies an invalidate_and_restart reaction to run.
func (e *eval) reactRestart(p *lang.Pipeline, run *Run, r *lang.EventReaction, in Input) {
	if reactsOnPermission(r) { // step_react_wake.go
		if why := e.actorRefused(in); why != "" {
			e.logf("run %s: on_events %s invalidate_and_restart: %s; not restarted", run.ID, r.Event, why)
			return
		}
	}
	key, prefix := e.reactionKey(run, r, in, "restart")
	if contains(run.Applied, key) {
		e.logf("run %s: %s was reacted to already (%s); not restarted again", run.ID, r.Event, e.eventWhat(r))
		return
	}
	e.restart(p, run, r, key, prefix, fmt.Sprintf("%s (%s)", r.Event, e.eventWhat(r)))
}

// restart restarts run for reaction r, recording key (of prefix) as reacted to; why names
// the event for history.
func (e *eval) restart(p *lang.Pipeline, run *Run, r *lang.EventReaction, key, prefix, why string) {
	appendBounded(run, key, sameReaction(prefix, key))
	target := r.RestartFrom
	if target == "" || target == "current" {
		target = run.Stage
	}
	if p.Stage(target) == nil {
		e.finish(run, RunFailed, lang.TargetFail, fmt.Sprintf("on_events %s at %s restarts from stage %q, which is not in pipeline %q", r.Event, r.Pos, target, p.Name))
		return
	}
	var stale []string
	for _, id := range r.Invalidate {
		if e.invalidate(run, id, "invalidated on "+why, r.Event == eventPush) {
			stale = append(stale, id)
		}
	}
	if len(stale) > 0 {
		why += fmt.Sprintf(": the approvals and results of %s are stale", strings.Join(stale, ", "))
	}
	if it, ok := openIntent(run); ok && it.Kind == EffectMerge {
		// It merges the head it was asked for, or nothing: after a push GitHub refuses it. If
		// it went through, the closed event finds the run's own merge (ownMerge).
		e.logf("run %s: restarted while the merge of %s asked for at %s is in flight", run.ID, short(it.SHA), it.At.UTC().Format(time.RFC3339))
	}
	if run.Status == RunEscalated {
		e.record(run, run.Stage, run.Stage, why+"; not restarted: the run is escalated and waits for a maintainer's command")
		e.logf("run %s: %s; escalated, not restarted", run.ID, why)
		return
	}
	if cur := run.Stages[run.Stage]; cur != nil && run.Stage != target && !isDone(cur.Status) && cur.Status != StageStale {
		cur.Status = StageCancelled
	}
	e.enter(run, run.Stage, target, fmt.Sprintf("%s; restarting from %s", why, target))
}

// eventWhat describes the event a reaction acts on, for history: the head of a push.
func (e *eval) eventWhat(r *lang.EventReaction) string {
	if r.Event == "pull_request.synchronize" {
		return "head " + short(e.facts.PR.HeadSHA)
	}
	return "delivery"
}

// invalidate marks stage id of run stale. It reports whether the stage had been entered.
// On a push (push), an approval of the head it pushed is not stale: the push's job may run
// after a quick review of the new head, and only approvals of older heads are made stale.
func (e *eval) invalidate(run *Run, id, why string, push bool) bool {
	sr := run.Stages[id]
	if sr == nil {
		return false
	}
	sr.Stale = &Stale{At: e.now, Why: why, Verdict: sr.Verdict, SHA: sr.HeadSHA}
	for _, r := range LatestReviews(e.facts.PR.Reviews) {
		if r.State == ReviewApproved && !(push && r.CommitSHA == e.facts.PR.HeadSHA) && len(sr.Stale.Reviews) < maxStaleReviews {
			sr.Stale.Reviews = append(sr.Stale.Reviews, reviewKey(r))
		}
	}
	sr.Verdict, sr.Outputs, sr.Approvals, sr.Results = "", nil, nil, nil
	sr.Status = StageStale
	return true
}

// staleReview says whether review r was made stale for the stage of sr.
func staleReview(sr *StageRun, r Review) bool {
	return sr != nil && sr.Stale != nil && contains(sr.Stale.Reviews, reviewKey(r))
}
