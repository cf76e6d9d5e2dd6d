package react

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/core"
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
// delivery (Input.Key). The key is kept in Run.Applied among the last MaxReactionKeys
// of the run's reactions. A finished run is not restarted; an escalated one has its
// approvals marked stale but waits for a person's command.

// invalidateAndRestart applies an invalidate_and_restart reaction to run.
func invalidateAndRestart(k Kernel, p *lang.Pipeline, run *model.Run, r *lang.EventReaction, in model.Input) {
	w := k.World()
	if core.ReactsOnPermission(r) {
		if why := actorRefused(w, in); why != "" {
			k.Logf("run %s: on_events %s invalidate_and_restart: %s; not restarted", run.ID, r.Event, why)
			return
		}
	}
	key, prefix := reactionKey(w, run, r, in, "restart")
	if slices.Contains(run.Applied, key) {
		k.Logf("run %s: %s was reacted to already (%s); not restarted again", run.ID, r.Event, eventWhat(w, r))
		return
	}
	restart(k, p, run, r, key, prefix, fmt.Sprintf("%s (%s)", r.Event, eventWhat(w, r)))
}

// restart restarts run for reaction r, recording key (of prefix) as reacted to; why names
// the event for history.
func restart(k Kernel, p *lang.Pipeline, run *model.Run, r *lang.EventReaction, key, prefix, why string) {
	model.AppendBounded(run, key, model.SameReaction(prefix, key))
	target := r.RestartFrom
	if target == "" || target == "current" {
		target = run.Stage
	}
	if p.Stage(target) == nil {
		k.Finish(run, model.RunFailed, lang.TargetFail, fmt.Sprintf("on_events %s at %s restarts from stage %q, which is not in pipeline %q", r.Event, r.Pos, target, p.Name))
		return
	}
	w := k.World()
	var stale []string
	for _, id := range r.Invalidate {
		if invalidate(w, run, id, "invalidated on "+why, r.Event == eventPush) {
			stale = append(stale, id)
		}
	}
	if len(stale) > 0 {
		why += fmt.Sprintf(": the approvals and results of %s are stale", strings.Join(stale, ", "))
	}
	if it, ok := core.OpenIntent(run); ok && it.Kind == model.EffectMerge {
		// It merges the head it was asked for, or nothing: after a push GitHub refuses it. If
		// it went through, the closed event finds the run's own merge (Kernel.Merged).
		k.Logf("run %s: restarted while the merge of %s asked for at %s is in flight", run.ID, model.Short(it.SHA), it.At.UTC().Format(time.RFC3339))
	}
	if run.Status == model.RunEscalated {
		k.Record(run, why+"; not restarted: the run is escalated and waits for a maintainer's command")
		k.Logf("run %s: %s; escalated, not restarted", run.ID, why)
		return
	}
	restartFrom(k, run, target, fmt.Sprintf("%s; restarting from %s", why, target))
}

// restartFrom enters stage target of run anew; the attempt the run is at, unless done or
// stale, is cancelled.
func restartFrom(k Kernel, run *model.Run, target, why string) {
	if cur := run.Stages[run.Stage]; cur != nil && run.Stage != target && !core.IsDone(cur.Status) && cur.Status != model.StageStale {
		cur.Status = model.StageCancelled
	}
	k.Enter(run, target, why)
}
