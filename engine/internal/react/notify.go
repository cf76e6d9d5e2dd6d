package react

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// The `notify` reaction of on_events: a comment on the pull request mentioning the target,
// posted once per delivery of the event (a re-run of the same delivery does not post again).
// The key of each is recorded in Run.Applied when it is asked for, and only the invocation
// whose save of that state won performs it; the run keeps the keys of its last
// MaxReactionKeys notifications.

// notify asks for the notification of reaction r of run to input in.
func notify(k Kernel, p *lang.Pipeline, run *model.Run, r *lang.EventReaction, in model.Input) {
	if r.Notify == nil {
		return
	}
	w := k.World()
	delivery := in.Key
	if delivery == "" {
		delivery = in.Event + "@" + w.Now.UTC().Format("20060102T150405.000000000")
	}
	sum := sha256.Sum256([]byte(delivery))
	prefix := run.ID + "/" + model.ReactOnEvents + "/"
	key := prefix + hex.EncodeToString(sum[:6]) + "/notify"
	if slices.Contains(run.Applied, key) || slices.Contains(w.Facts.PR.Posted, key) {
		k.Logf("run %s: the notification of %s for this delivery was asked for already", run.ID, r.Event)
		return
	}
	eff := model.Effect{Key: key, Run: run.ID, Stage: run.Stage, Number: w.Facts.PR.Number}
	eff, err := k.PlanNotify(run, eff, r.Notify.Target, r.Notify.Message, k.TemplateEnv(p, run))
	switch {
	case err != "":
		k.Logf("run %s: on_events %s notify at %s: %s", run.ID, r.Event, r.Pos, err)
		return
	case eff.Kind == "":
		return
	}
	eff.WriteAhead = true
	model.AppendBounded(run, key, model.SameReaction(prefix, key))
	k.Logf("run %s: notification on %s asked for (%s)", run.ID, r.Event, fmt.Sprint(r.Pos))
	k.Emit(eff)
}
