package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// on_any_reject's notify and label are asked for once, with the branches in reach, before
// its goto is followed, as a verdict rule's are.
func TestParallelOnAnyRejectNotifiesAndLabels(t *testing.T) {
	cfg := parallelConfig(t, lang.JoinAll, "sec", "perf")
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"alice"}}}
	review := cfg.Pipelines[0].Stages[1]
	review.OnAnyReject = &lang.Rule{Goto: "implement", MaxIterations: 2, Then: lang.TargetFail, Labels: []string{"changes-asked"},
		Notify: &lang.Notify{Target: agentTemplate(t, "maintainers"), Message: agentTemplate(t, "rejected: {{ filter(branches.*.feedback, # != nil) }}")}}
	f := prFacts()
	res := dispatched(t, cfg, atReview(t, cfg, f), f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictReject, map[string]any{"feedback": "validate the input"}), f, t0.Add(2*time.Minute))
	run := res.State.Runs[0]
	require.Equal(t, "implement", run.Stage)
	byKind := map[model.EffectKind]model.Effect{}
	for _, eff := range res.Effects {
		byKind[eff.Kind] = eff
	}
	require.Len(t, res.Effects, 3, "label, notification and the implementer's dispatch: %+v", res.Effects)
	assert.Equal(t, []string{"changes-asked"}, byKind[model.EffectLabel].Labels)
	note := byKind[model.EffectComment]
	assert.Contains(t, note.Body, "@alice")
	assert.Contains(t, note.Body, "validate the input")
	assert.Contains(t, run.Applied, note.Key, "recorded when asked for: never posted twice")

	// The same rejection delivered again is refused: nothing is posted again.
	again := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "sec-review", 1, lang.VerdictReject, map[string]any{"feedback": "validate the input"}), f, t0.Add(3*time.Minute))
	for _, eff := range again.Effects {
		assert.NotEqual(t, model.EffectComment, eff.Kind)
		assert.NotEqual(t, model.EffectLabel, eff.Kind)
	}
}
