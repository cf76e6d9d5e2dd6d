package engine

import "github.com/org/pipeline-action/engine/lang"

// mergeEffects are the merges among effs.
func mergeEffects(effs []Effect) []Effect {
	var out []Effect
	for _, e := range effs {
		if e.Kind == EffectKind(lang.ActionMergePR) {
			out = append(out, e)
		}
	}
	return out
}
