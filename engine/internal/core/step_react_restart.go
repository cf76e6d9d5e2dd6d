package core

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// maxStaleReviews bounds Stale.Reviews (the latest review of each reviewer is what counts).
const maxStaleReviews = 100

// ReactionKey is the key that makes reaction r of run act once for the event of in:
// per head commit for a push, per delivery otherwise.
func (e *Eval) ReactionKey(run *model.Run, r *lang.EventReaction, in model.Input, what string) (key, prefix string) {
	delivery := in.Key
	switch {
	case r.Event == "pull_request.synchronize" && e.Facts.PR.HeadSHA != "":
		delivery = r.Event + "@" + e.Facts.PR.HeadSHA
	case delivery == "":
		delivery = in.Event + "@" + e.Now.UTC().Format("20060102T150405.000000000")
	}
	sum := sha256.Sum256([]byte(delivery))
	prefix = run.ID + "/" + model.ReactOnEvents + "/"
	return prefix + hex.EncodeToString(sum[:6]) + "/" + what, prefix
}

// EventWhat describes the event a reaction acts on, for history: the head of a push.
func (e *Eval) EventWhat(r *lang.EventReaction) string {
	if r.Event == "pull_request.synchronize" {
		return "head " + model.Short(e.Facts.PR.HeadSHA)
	}
	return "delivery"
}

// invalidate marks stage id of run stale. It reports whether the stage had been entered.
// On a push (push), an approval of the head it pushed is not stale: the push's job may run
// after a quick review of the new head, and only approvals of older heads are made stale.
func (e *Eval) Invalidate(run *model.Run, id, why string, push bool) bool {
	sr := run.Stages[id]
	if sr == nil {
		return false
	}
	sr.Stale = &model.Stale{At: e.Now, Why: why, Verdict: sr.Verdict, SHA: sr.HeadSHA}
	for _, r := range model.LatestReviews(e.Facts.PR.Reviews) {
		if r.State == model.ReviewApproved && !(push && r.CommitSHA == e.Facts.PR.HeadSHA) && len(sr.Stale.Reviews) < maxStaleReviews {
			sr.Stale.Reviews = append(sr.Stale.Reviews, model.ReviewKey(r))
		}
	}
	sr.Verdict, sr.Outputs, sr.Approvals, sr.Results = "", nil, nil, nil
	sr.Status = model.StageStale
	return true
}
