package webhook

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const src = `version: 1
settings:
  webhooks: {allow_private: true}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: notify
        type: webhook
        request: {url: "https://hooks.example.com/b/{{ context.branch }}", method: post}
        expect: {status: 202}
        on_error: {retry: 1}
      - id: after
        type: gate
        conditions: [{check: ci_status}]
`

var now = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

func setup(t *testing.T) (*stagetest.Context, *model.Run, *lang.Stage) {
	cfg := stagetest.Config(t, src)
	p := cfg.Pipeline("p")
	run, s := stagetest.At(t, p, "notify")
	c := stagetest.New(p, now)
	c.S = cfg.Settings
	c.Vars = lang.Env{"context": map[string]any{"branch": "a/b"}}
	return c, run, s
}

func TestStepAsksForOneCallWrittenAhead(t *testing.T) {
	c, run, s := setup(t)
	d := Type{}.Step(c, run, s)
	assert.Equal(t, stage.Stay(), d)
	require.Len(t, c.Emitted, 1)
	eff := c.Emitted[0]
	assert.True(t, eff.WriteAhead, "written ahead like a merge")
	assert.Equal(t, "p#1/notify/1/webhook/1", eff.Key)
	assert.Equal(t, "https://hooks.example.com/b/a%2Fb", eff.Webhook.URL)
	assert.True(t, Type{}.Owns(run, s, eff.Key))

	run.Applied = append(run.Applied, eff.Key)
	c.Emitted = nil
	d = Type{}.Step(c, run, s)
	assert.True(t, d.Leave, "a call made is never made twice")
	assert.Equal(t, model.StageFailed, d.Status)
}

func TestSettleRetriesThenFails(t *testing.T) {
	c, run, s := setup(t)
	key := Key(run, s)
	d := Type{}.Settle(c, run, s, model.Outcome{Key: key, Err: "answered 500", Response: &model.WebhookResponse{Status: 500}})
	assert.Equal(t, stage.Stay(), d, "on_error's retry")
	assert.Equal(t, model.StageRetrying, run.Stages["notify"].Status)
	assert.Equal(t, map[string]any{"status": float64(500)}, run.Stages["notify"].Outputs)
	d = Type{}.Settle(c, run, s, model.Outcome{Key: Key(run, s), Err: "answered 500"})
	assert.Equal(t, model.StageFailed, d.Status)
	assert.Equal(t, lang.TargetFail, d.Target)
	assert.Contains(t, d.Why, "1 retry spent")
}

func TestSettleSucceedsAndLostFails(t *testing.T) {
	c, run, s := setup(t)
	d := Type{}.Settle(c, run, s, model.Outcome{Key: Key(run, s), Response: &model.WebhookResponse{Status: 202}})
	assert.Equal(t, stage.Leave(model.StageSucceeded, "after", "webhook POST hooks.example.com answered 202"), d)

	c, run, s = setup(t)
	it := model.Intent{Key: Key(run, s), At: now}
	d = Type{}.Lost(c, run, s, it)
	assert.Equal(t, model.StageFailed, d.Status)
	assert.Contains(t, d.Why, "it is not made again")
	assert.Contains(t, run.Applied, it.Key)
}
