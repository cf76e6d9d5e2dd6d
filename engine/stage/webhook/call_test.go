package webhook

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func webhookStage(t *testing.T, url string) *lang.Stage {
	t.Helper()
	u, err := lang.CompileTemplate(url, lang.Pos{})
	require.Nil(t, err)
	return &lang.Stage{ID: "hook", Type: lang.StageWebhook, Request: &lang.Request{URL: u}}
}

func TestRenderRefusesAHostNotAllowedBeforeBuildingTheEnv(t *testing.T) {
	called := false
	env := func() lang.Env { called = true; return lang.Env{} }
	_, err := Render(webhookStage(t, "https://evil.example/x"), &lang.Settings{WebhookHosts: []string{"hooks.example"}}, env)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not in settings.webhooks.allow")
	assert.False(t, called, "the env is built only for a host that is allowed")
}

func TestRenderDefaults(t *testing.T) {
	settings := &lang.Settings{WebhookHosts: []string{"hooks.example"}}
	call, err := Render(webhookStage(t, "https://hooks.example/deploy"), settings, func() lang.Env { return lang.Env{} })
	require.NoError(t, err)
	assert.Equal(t, "POST", call.Method)
	assert.Equal(t, 200, call.Expect)
	assert.Equal(t, DefaultTimeout, call.Timeout)
	assert.Equal(t, "hooks.example", call.Host)
	assert.Equal(t, []string{"hooks.example"}, call.Allow)
}
