package engine

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func TestReactionNotifyOncePerDelivery(t *testing.T) {
	cfg := stepConfig()
	cfg.Groups = []*lang.Group{{Name: "maintainers", Users: []string{"alice"}, Teams: []string{"acme/core"}}}
	cfg.Pipelines[0].OnEvents = append(cfg.Pipelines[0].OnEvents, lang.EventReaction{
		Event: "pull_request.labeled", Action: lang.ReactNotify,
		Notify: &lang.Notify{Target: mustTemplate("maintainers"), Message: mustTemplate("labels now: {{ github.pr.labels }}")}})
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Empty(t, res.Effects)

	res = Step(cfg, res.State, model.Input{Key: "d1", Event: "pull_request.labeled"}, prFacts("x"), t0)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectComment, eff.Kind)
	assert.Equal(t, "@alice @acme/core labels now: `[\"x\"]`", eff.Body)
	assert.True(t, eff.WriteAhead)
	assert.Equal(t, "ready", res.State.Runs[0].Stage, "the run carries on")

	// The same delivery again (a re-run): not posted again; its outcome moves nothing.
	again := Step(cfg, res.State, model.Input{Key: "d1", Event: "pull_request.labeled"}, prFacts("x"), t0)
	assert.Empty(t, again.Effects)
	settled := Settle(cfg, res.State, model.Input{Key: "d1"}, []model.Outcome{{Key: eff.Key}}, prFacts("x"), t0)
	assert.Empty(t, settled.Effects)

	// Many deliveries: the run keeps the keys of the last 20.
	st := res.State
	for i := 0; i < 30; i++ {
		r := Step(cfg, st, model.Input{Key: fmt.Sprintf("d%d", i+2), Event: "pull_request.labeled"}, prFacts("x"), t0)
		require.Len(t, r.Effects, 1)
		st = r.State
	}
	assert.Len(t, st.Runs[0].Applied, model.MaxReactionKeys)
}
