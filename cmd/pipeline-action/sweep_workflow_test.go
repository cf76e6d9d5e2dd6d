package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sweep workflow for users runs on a schedule and by hand, with the permissions of the
// event workflow, and gives the action only inputs it has.
func TestSweepWorkflow(t *testing.T) {
	sweep := readYAML(t, "../../docs/setup/sweep-nokey.yml")
	events := readYAML(t, "../../docs/setup/pipelines-nokey.yml")
	on := sweep["on"].(map[string]any)
	require.Contains(t, on, "schedule")
	require.Contains(t, on, "workflow_dispatch")
	assert.NotEmpty(t, on["schedule"].([]any)[0].(map[string]any)["cron"])
	assert.Equal(t, events["permissions"], sweep["permissions"])

	inputs := readYAML(t, "../../action.yml")["inputs"].(map[string]any)
	steps := sweep["jobs"].(map[string]any)["sweep"].(map[string]any)["steps"].([]any)
	require.Len(t, steps, 1)
	step := steps[0].(map[string]any)
	assert.Equal(t, "org/pipeline-action@v1", step["uses"])
	with := step["with"].(map[string]any)
	assert.Equal(t, "sweep", with["command"])
	for k := range with {
		assert.Contains(t, inputs, k, "the action has no input %q", k)
	}
}
