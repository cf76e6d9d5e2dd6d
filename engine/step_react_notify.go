package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/org/pipeline-action/engine/lang"
)

// The `notify` reaction of on_events: a comment on the pull request mentioning the target,
// posted once per delivery of the event (a re-run of the same delivery does not post again).
// The key of each is recorded in Run.Applied when it is asked for, and only the invocation
// whose save of that state won performs it; the run keeps the keys of its last
// maxReactionKeys notifications.

const (
	reactOnEvents   = "on_events"
	maxReactionKeys = 20
)

// reactNotify asks for the notification of reaction r of run to input in.
func (e *eval) reactNotify(p *lang.Pipeline, run *Run, r *lang.EventReaction, in Input) {
	if r.Notify == nil {
		return
	}
	delivery := in.Key
	if delivery == "" {
		delivery = in.Event + "@" + e.now.UTC().Format("20060102T150405.000000000")
	}
	sum := sha256.Sum256([]byte(delivery))
	prefix := run.ID + "/" + reactOnEvents + "/"
	key := prefix + hex.EncodeToString(sum[:6]) + "/notify"
	if contains(run.Applied, key) || contains(e.facts.PR.Posted, key) {
		e.logf("run %s: the notification of %s for this delivery was asked for already", run.ID, r.Event)
		return
	}
	eff := Effect{Key: key, Run: run.ID, Stage: run.Stage, Number: e.facts.PR.Number}
	plan := e.planNotify(run, eff, r.Notify.Target, r.Notify.Message, e.templateEnv(p, run))
	switch {
	case plan.err != "":
		e.logf("run %s: on_events %s notify at %s: %s", run.ID, r.Event, r.Pos, plan.err)
		return
	case plan.eff.Kind == "":
		return
	}
	plan.eff.WriteAhead = true
	appendBounded(run, key, sameReaction(prefix, key))
	e.logf("run %s: notification on %s asked for (%s)", run.ID, r.Event, fmt.Sprint(r.Pos))
	e.effects = append(e.effects, plan.eff)
}

// appendBounded records key in run.Applied, keeping of the keys ours tells apart only the
// last maxReactionKeys (with key): notifications repeat for every delivery or head commit.
func appendBounded(run *Run, key string, ours func(string) bool) {
	var kept []string
	n := 0
	for i := len(run.Applied) - 1; i >= 0; i-- {
		k := run.Applied[i]
		if ours(k) {
			if n++; n >= maxReactionKeys {
				continue
			}
		}
		kept = append([]string{k}, kept...)
	}
	run.Applied = append(kept, key)
}

// sameReaction tells apart the keys of the reactions of on_events of the kind of key (the
// same prefix and last segment: notify, wake, restart). Each kind is bounded apart, so that
// many notifications never push out the key of the restart for the current head, which keeps
// the run from restarting again for it (step_react_level.go).
func sameReaction(prefix, key string) func(string) bool {
	kind := key[strings.LastIndex(key, "/"):]
	return func(k string) bool { return strings.HasPrefix(k, prefix) && strings.HasSuffix(k, kind) }
}
