package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// A verdict rule's notify and label are asked for once, with the report's outputs in
// reach, before the rule's goto is followed.
func TestVerdictRuleNotifyAndLabel(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"alice"}, Teams: []string{"acme/core"}}}
	rule := cfg.Pipelines[0].Stages[1].Verdicts[lang.VerdictRevise]
	rule.Notify = &lang.Notify{Target: agentTemplate(t, "maintainers"), Message: agentTemplate(t, "revise: {{ outputs.feedback }}")}
	rule.Labels = []string{"needs-work", "ok"}
	f := prFacts("ok")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	require.Equal(t, "analyze", res.State.Runs[0].Stage)

	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictRevise, map[string]any{"feedback": "add tests"}), f, t0.Add(2*time.Minute))
	byKind := map[model.EffectKind]model.Effect{}
	for _, eff := range res.Effects {
		byKind[eff.Kind] = eff
	}
	require.Len(t, res.Effects, 3, "label, notification, and the dispatch of implement: %+v", res.Effects)
	lbl := byKind[model.EffectLabel]
	assert.Equal(t, []string{"needs-work"}, lbl.Labels, "a label already there is not added again")
	assert.Equal(t, "loop/7/1/analyze/1/on_revise/aaaaaaa/label", lbl.Key)
	note := byKind[model.EffectComment]
	assert.Equal(t, "loop/7/1/analyze/1/on_revise/aaaaaaa/notify", note.Key)
	assert.True(t, note.WriteAhead)
	assert.Contains(t, note.Body, "@alice @acme/core revise: add tests")
	assert.Equal(t, "loop/7/1/implement/2/dispatch", byKind[model.EffectDispatch].Key)
	run := res.State.Runs[0]
	assert.Equal(t, "implement", run.Stage)
	assert.Contains(t, run.Applied, note.Key, "recorded when asked for: never posted twice")

	// The same report again is refused (the run has moved on): nothing is posted again.
	again := Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictRevise, map[string]any{"feedback": "add tests"}), f, t0.Add(3*time.Minute))
	for _, eff := range again.Effects {
		assert.NotEqual(t, model.EffectComment, eff.Kind)
	}
	assert.Contains(t, joinLog(again.Log), "refused")
}

// A notification whose target cannot be resolved does not stop the rule: the run follows
// it, and the stage says why no one was notified.
func TestVerdictRuleNotifyError(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	rule := cfg.Pipelines[0].Stages[1].Verdicts[lang.VerdictReject]
	rule.Notify = &lang.Notify{Target: agentTemplate(t, "no such group!")}
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	res = dispatched(t, cfg, res, f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0.Add(time.Minute))
	res = dispatched(t, cfg, res, f, t0.Add(time.Minute))
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "analyze", 1, lang.VerdictReject, nil), f, t0.Add(2*time.Minute))
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Stages["analyze"].Message, "on_reject: the notification could not be sent")
}
