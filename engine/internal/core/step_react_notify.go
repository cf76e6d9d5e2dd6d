package core

import (
	"strings"

	"github.com/org/pipeline-action/engine/model"
)

const (
	ReactOnEvents   = "on_events"
	MaxReactionKeys = 20
)

// AppendBounded records key in run.Applied, keeping of the keys ours tells apart only the
// last MaxReactionKeys (with key): notifications repeat for every delivery or head commit.
func AppendBounded(run *model.Run, key string, ours func(string) bool) {
	var kept []string
	n := 0
	for i := len(run.Applied) - 1; i >= 0; i-- {
		k := run.Applied[i]
		if ours(k) {
			if n++; n >= MaxReactionKeys {
				continue
			}
		}
		kept = append([]string{k}, kept...)
	}
	run.Applied = append(kept, key)
}

// SameReaction tells apart the keys of the reactions of on_events of the kind of key (the
// same prefix and last segment: notify, wake, restart). Each kind is bounded apart, so that
// many notifications never push out the key of the restart for the current head, which keeps
// the run from restarting again for it.
func SameReaction(prefix, key string) func(string) bool {
	kind := key[strings.LastIndex(key, "/"):]
	return func(k string) bool { return strings.HasPrefix(k, prefix) && strings.HasSuffix(k, kind) }
}
