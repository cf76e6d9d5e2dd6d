package state

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pipelines a subject enables or disables go through the comment and the state file,
// and the status says which.
func TestEnabledPipelinesRoundTripAndRender(t *testing.T) {
	st := &model.State{Version: 1, Subject: "acme/widgets#7",
		Enabled: map[string]bool{"developer": true, "auto-task": true, "session-lifecycle": false}}
	out := Render(testConfig(), st)
	assert.Contains(t, out, "<sub>Pipelines enabled here: `auto-task`, `developer`; disabled here: `session-lifecycle`</sub>")

	body, err := Body(testConfig(), st)
	require.NoError(t, err)
	back, found, err := Decode(body)
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, st.Enabled, back.Enabled)

	file, err := EncodeFile(st)
	require.NoError(t, err)
	fromFile, err := DecodeFile(file, "acme/widgets#7")
	require.NoError(t, err)
	assert.Equal(t, st.Enabled, fromFile.Enabled)

	assert.NotContains(t, Render(testConfig(), &model.State{Version: 1, Subject: "acme/widgets#7"}), "enabled here")
}
