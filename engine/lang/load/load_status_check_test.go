package load

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const statusCheckPipelines = `
pipelines:
  review:
    trigger: {event: pull_request.opened}
    stages:
      - {id: wait, type: delay, duration: 1m}
`

func TestSettingsStatusCheck(t *testing.T) {
	cfg, err := Load("c.yaml", []byte("version: 1\nsettings:\n  status_check: true\n"+statusCheckPipelines), fakeRegistry{})
	require.NoError(t, err)
	assert.True(t, cfg.Settings.StatusCheck)

	cfg, err = Load("c.yaml", []byte("version: 1\n"+statusCheckPipelines), fakeRegistry{})
	require.NoError(t, err)
	assert.False(t, cfg.Settings.StatusCheck, "off unless asked for")

	_, err = Load("c.yaml", []byte("version: 1\nsettings:\n  status_check: always\n"+statusCheckPipelines), fakeRegistry{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "c.yaml:3:17")
}
