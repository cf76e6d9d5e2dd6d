package react

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// maxStaleReviews bounds Stale.Reviews (the latest review of each reviewer is what counts).
const maxStaleReviews = 100

// eventPush is the event of a push to a pull request's head.
const eventPush = "pull_request.synchronize"

// reactionKey is the key that makes reaction r of run act once for the event of in:
// per head commit for a push, per delivery otherwise.
func reactionKey(w World, run *model.Run, r *lang.EventReaction, in model.Input, what string) (key, prefix string) {
	delivery := in.Key
	switch {
	case r.Event == eventPush && w.Facts.PR.HeadSHA != "":
		delivery = r.Event + "@" + w.Facts.PR.HeadSHA
	case delivery == "":
		delivery = in.Event + "@" + w.Now.UTC().Format("20060102T150405.000000000")
	}
	sum := sha256.Sum256([]byte(delivery))
	prefix = run.ID + "/" + model.ReactOnEvents + "/"
	return prefix + hex.EncodeToString(sum[:6]) + "/" + what, prefix
}

// eventWhat describes the event a reaction acts on, for history: the head of a push.
func eventWhat(w World, r *lang.EventReaction) string {
	if r.Event == eventPush {
		return "head " + model.Short(w.Facts.PR.HeadSHA)
	}
	return "delivery"
}

// invalidate marks stage id of run stale. It reports whether the stage had been entered.
// On a push (push), an approval of the head it pushed is not stale: the push's job may run
// after a quick review of the new head, and only approvals of older heads are made stale.
func invalidate(w World, run *model.Run, id, why string, push bool) bool {
	sr := run.Stages[id]
	if sr == nil {
		return false
	}
	sr.Stale = &model.Stale{At: w.Now, Why: why, Verdict: sr.Verdict, SHA: sr.HeadSHA}
	for _, r := range model.LatestReviews(w.Facts.PR.Reviews) {
		if r.State == model.ReviewApproved && !(push && r.CommitSHA == w.Facts.PR.HeadSHA) && len(sr.Stale.Reviews) < maxStaleReviews {
			sr.Stale.Reviews = append(sr.Stale.Reviews, model.ReviewKey(r))
		}
	}
	sr.Verdict, sr.Outputs, sr.Approvals, sr.Results = "", nil, nil, nil
	sr.Status = model.StageStale
	return true
}

// actorRefused says why the actor of in may not move a reaction (wake an agent, restart a
// run), or "": it needs the chat-ops permission (settings.chatops.permission, default write).
func actorRefused(w World, in model.Input) string {
	need := w.Cfg.Settings.ChatOpsPermission
	if need == "" {
		need = model.DefaultChatOpsPermission
	}
	if w.Facts.People.Has(in.Actor, need) {
		return ""
	}
	have, ok := w.Facts.People.Permission(in.Actor)
	if !ok {
		have = "not known"
	}
	return fmt.Sprintf("the event is by @%s, whose permission is %s; it needs %s (settings.chatops.permission)", in.Actor, have, need)
}
