package engine

import (
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
)

// mergeEffects are the merges among effs.
func mergeEffects(effs []model.Effect) []model.Effect {
	var out []model.Effect
	for _, e := range effs {
		if e.Kind == model.EffectKind(lang.ActionMergePR) {
			out = append(out, e)
		}
	}
	return out
}
