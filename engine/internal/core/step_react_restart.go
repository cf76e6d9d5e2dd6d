package core

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

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
	Reviews []string  `json:"reviews,omitempty"` // ReviewKey of each
}

// maxStaleReviews bounds Stale.Reviews (the latest review of each reviewer is what counts).
const maxStaleReviews = 100

// ReviewKey names one review: its author, the commit it was given on, and when.
func ReviewKey(r Review) string {
	return strings.ToLower(r.Author) + "@" + r.CommitSHA + "@" + r.SubmittedAt.UTC().Format(time.RFC3339Nano)
}

// ReactionKey is the key that makes reaction r of run act once for the event of in:
// per head commit for a push, per delivery otherwise.
func (e *Eval) ReactionKey(run *Run, r *lang.EventReaction, in Input, what string) (key, prefix string) {
	delivery := in.Key
	switch {
	case r.Event == "pull_request.synchronize" && e.Facts.PR.HeadSHA != "":
		delivery = r.Event + "@" + e.Facts.PR.HeadSHA
	case delivery == "":
		delivery = in.Event + "@" + e.Now.UTC().Format("20060102T150405.000000000")
	}
	sum := sha256.Sum256([]byte(delivery))
	prefix = run.ID + "/" + ReactOnEvents + "/"
	return prefix + hex.EncodeToString(sum[:6]) + "/" + what, prefix
}

// EventWhat describes the event a reaction acts on, for history: the head of a push.
func (e *Eval) EventWhat(r *lang.EventReaction) string {
	if r.Event == "pull_request.synchronize" {
		return "head " + Short(e.Facts.PR.HeadSHA)
	}
	return "delivery"
}

// invalidate marks stage id of run stale. It reports whether the stage had been entered.
// On a push (push), an approval of the head it pushed is not stale: the push's job may run
// after a quick review of the new head, and only approvals of older heads are made stale.
func (e *Eval) Invalidate(run *Run, id, why string, push bool) bool {
	sr := run.Stages[id]
	if sr == nil {
		return false
	}
	sr.Stale = &Stale{At: e.Now, Why: why, Verdict: sr.Verdict, SHA: sr.HeadSHA}
	for _, r := range LatestReviews(e.Facts.PR.Reviews) {
		if r.State == ReviewApproved && !(push && r.CommitSHA == e.Facts.PR.HeadSHA) && len(sr.Stale.Reviews) < maxStaleReviews {
			sr.Stale.Reviews = append(sr.Stale.Reviews, ReviewKey(r))
		}
	}
	sr.Verdict, sr.Outputs, sr.Approvals, sr.Results = "", nil, nil, nil
	sr.Status = StageStale
	return true
}

// StaleReview says whether review r was made stale for the stage of sr.
func StaleReview(sr *StageRun, r Review) bool {
	return sr != nil && sr.Stale != nil && slices.Contains(sr.Stale.Reviews, ReviewKey(r))
}
