package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

const webhookYAML = `version: 1
settings:
  webhooks: {allow_private: true}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    context:
      pr_number: "{{ trigger.pull_request.number }}"
      branch: "{{ trigger.pull_request.head.ref }}"
    stages:
      - id: notify
        type: webhook
        request:
          url: "https://hooks.example.com/builds/{{ context.branch }}?pr={{ context.pr_number }}&t={{ context.branch }}"
          method: put
          headers:
            Authorization: "Bearer {{ secrets.hook_token }}"
            X-Pr: "#{{ context.pr_number }}"
          body: {pr: "{{ context.pr_number }}", branch: "{{ context.branch }}", fixed: [1, true]}
        expect: {status: 202}
        timeout: 45s
        on_error: {retry: 1}
      - id: after
        type: action
        action: comment
        config: {body: "build {{ stages.notify.outputs.body.id }} answered {{ stages.notify.outputs.status }}"}
`

func loadWebhook(t *testing.T, src string) *lang.Config {
	t.Helper()
	cfg, err := Load("pipelines.yaml", []byte(src), fakeRegistry{})
	require.NoError(t, err)
	return cfg
}

func TestWebhookCallIsWriteAheadEscapedAndOnce(t *testing.T) {
	cfg := loadWebhook(t, webhookYAML)
	f := prFacts()
	climb := strings.Repeat("../", 2) // a branch name that climbs the url's path
	f.PR.HeadRef = climb + "admin?x=1#frag"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectWebhook, eff.Kind)
	assert.Equal(t, "p/7/1/notify/1/webhook/1", eff.Key)
	assert.True(t, eff.WriteAhead, "a call is saved as an intent before it is made")
	require.Len(t, res.State.Runs[0].Intents, 1)
	c := eff.Webhook
	require.NotNil(t, c)
	assert.Equal(t, "PUT", c.Method)
	// The branch name stays one path segment and one query value: it cannot climb the path,
	// add a parameter or cut the url.
	assert.Equal(t, "https://hooks.example.com/builds/..%2F..%2Fadmin%3Fx=1%23frag?pr=7&t=..%2F..%2Fadmin%3Fx%3D1%23frag", c.URL)
	assert.Equal(t, "hooks.example.com", c.Host)
	assert.Equal(t, 202, c.Expect)
	assert.Equal(t, 45*time.Second, c.Timeout)
	assert.True(t, c.AllowPrivate)
	assert.Equal(t, []model.WebhookHeader{
		{Name: "Authorization", Parts: []model.WebhookHeaderPart{{Text: "Bearer "}, {Secret: "HOOK_TOKEN"}}},
		{Name: "X-Pr", Parts: []model.WebhookHeaderPart{{Text: "#7"}}},
	}, c.Headers)
	assert.JSONEq(t, `{"pr": 7, "branch": "`+climb+`admin?x=1#frag", "fixed": [1, true]}`, c.Body)
	assert.NotContains(t, string(model.MustJSON(res.State)), "Bearer", "the request is not kept in the state")

	// The same event again while the intent is in flight: no second call.
	again := Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0.Add(time.Second))
	assert.Empty(t, again.Effects)

	// The answer: the stage's outputs, and the run goes on.
	done := Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: eff.Key, Response: &model.WebhookResponse{Status: 202, Body: map[string]any{"id": "b-9"}}}}, f, t0)
	run := done.State.Runs[0]
	assert.Equal(t, model.StageSucceeded, run.Stages["notify"].Status)
	assert.Equal(t, map[string]any{"status": float64(202), "body": map[string]any{"id": "b-9"}}, run.Stages["notify"].Outputs)
	for _, it := range run.Intents {
		assert.NotEqual(t, eff.Key, it.Key, "the call's intent is settled")
	}
	assert.Contains(t, run.Applied, eff.Key)
	require.Len(t, done.Effects, 1)
	assert.Equal(t, "build b-9 answered 202", done.Effects[0].Body)

	// A redelivered event after the call: the call is not made again.
	re := Step(cfg, done.State, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0.Add(time.Minute))
	for _, e := range re.Effects {
		assert.NotEqual(t, model.EffectWebhook, e.Kind)
	}
}

func TestWebhookWrongStatusRetriesThenFails(t *testing.T) {
	cfg := loadWebhook(t, webhookYAML)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	first := res.Effects[0]
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: first.Key, Err: "answered 500, not 202", Response: &model.WebhookResponse{Status: 500}}}, f, t0)
	require.Len(t, res.Effects, 1, "on_error retry: one more call")
	second := res.Effects[0]
	assert.Equal(t, "p/7/1/notify/1/webhook/2", second.Key)
	sr := res.State.Runs[0].Stages["notify"]
	assert.Equal(t, model.StageRetrying, sr.Status)
	assert.Contains(t, sr.Message, "retry 1 of 1")
	assert.Equal(t, map[string]any{"status": float64(500)}, sr.Outputs)

	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: second.Key, Err: "no answer within 45s"}}, f, t0)
	assert.Empty(t, res.Effects)
	run := res.State.Runs[0]
	assert.Nil(t, run.Stages["notify"].Outputs, "the outputs are the last call's: it got no answer")
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Equal(t, model.StageFailed, run.Stages["notify"].Status)
	assert.Contains(t, run.Message, `webhook stage "notify" failed: no answer within 45s; 1 retry spent`)
}

func TestWebhookRefusedCallIsNotRetried(t *testing.T) {
	src := replaceOnce(t, webhookYAML, "        on_error: {retry: 1}\n", "        on_error: {retry: 3}\n        on_failure: escalate\n")
	cfg := loadWebhook(t, src)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	why := "refused: hooks.example.com resolves to 169.254.169.254, a link-local address"
	res = Settle(cfg, res.State, model.Input{}, []model.Outcome{{Key: res.Effects[0].Key, Err: why, Permanent: true}}, f, t0)
	assert.Empty(t, res.Effects, "a refused call is not made again")
	run := res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Stages["notify"].Message, why)
}

func TestWebhookUnknownOutcomeIsNotCalledTwice(t *testing.T) {
	cfg := loadWebhook(t, webhookYAML)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened", Deadline: t0.Add(5 * time.Minute)}, f, t0)
	require.Len(t, res.Effects, 1)
	// The invocation ended without recording the answer; much later, another event.
	later := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.synchronize"}, f, t0.Add(time.Hour))
	for _, e := range later.Effects {
		assert.NotEqual(t, model.EffectWebhook, e.Kind, "retries do not apply to a call that may have been made")
	}
	run := later.State.Runs[0]
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, "it is not made again, so that it is not made twice")
	assert.Contains(t, run.Applied, res.Effects[0].Key)
}

func TestWebhookOutcomeKnownToTheInvocationIsRecorded(t *testing.T) {
	cfg := loadWebhook(t, webhookYAML)
	f := prFacts()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	key := res.Effects[0].Key
	// The save after the call conflicted: the next round reads the state anew and carries the outcome.
	next := Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.opened", Outcomes: []model.Outcome{{Key: key, Response: &model.WebhookResponse{Status: 202}}}}, f, t0)
	run := next.State.Runs[0]
	assert.Equal(t, model.StageSucceeded, run.Stages["notify"].Status)
	assert.Equal(t, "after", run.Stage)
}

func TestWebhookTemplateErrorsFailWithoutCalling(t *testing.T) {
	cases := map[string]struct{ from, to, want string }{
		"no value in the url":        {`?pr={{ context.pr_number }}`, `?pr={{ context.missing }}`, "has no value"},
		"a header with a line break": {`X-Pr: "#{{ context.pr_number }}"`, `X-Pr: "{{ trigger.pull_request.title }}"`, "control character"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := loadWebhook(t, replaceOnce(t, webhookYAML, tc.from, tc.to))
			f := prFacts()
			f.PR.Title = "fix\r\nX-Injected: 1"
			res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
			assert.Empty(t, res.Effects)
			run := res.State.Runs[0]
			assert.Equal(t, model.RunFailed, run.Status)
			assert.Contains(t, run.Message, tc.want)
		})
	}
}

func TestWebhookHostMustBeAllowed(t *testing.T) {
	src := replaceOnce(t, webhookYAML, "webhooks: {allow_private: true}", "webhooks: {allow: [api.example.com]}")
	_, err := Load("pipelines.yaml", []byte(src), fakeRegistry{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `webhook host "hooks.example.com" is not allowed`)
}

func replaceOnce(t *testing.T, s, from, to string) string {
	t.Helper()
	require.Contains(t, s, from)
	return strings.Replace(s, from, to, 1)
}

func TestWebhookConditionSkipsTheCall(t *testing.T) {
	src := replaceOnce(t, webhookYAML, "        type: webhook\n", "        type: webhook\n        condition: {labels_include: [notify]}\n        skip_to: after\n")
	cfg := loadWebhook(t, src)
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	for _, e := range res.Effects {
		assert.NotEqual(t, model.EffectWebhook, e.Kind)
	}
	assert.Equal(t, "after", res.State.Runs[0].Stage)

	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("notify"), t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectWebhook, res.Effects[0].Kind)
}
