package run

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A workflow_dispatch naming a pipeline and a number is routed to that subject; one with
// neither input is not the action's; one with a number that is none is an error.
func TestRouteWorkflowDispatchStart(t *testing.T) {
	payload := func(inputs map[string]any) []byte {
		b, err := json.Marshal(map[string]any{"inputs": inputs, "ref": "refs/heads/main", "workflow": ".github/workflows/pipelines.yml",
			"repository": map[string]any{"full_name": "acme/widgets", "default_branch": "main"}, "sender": map[string]any{"login": "alice"}})
		require.NoError(t, err)
		return b
	}
	got, err := route("workflow_dispatch", payload(map[string]any{"pipeline": "release-check", "number": "#7"}))
	require.NoError(t, err)
	assert.Equal(t, routed{Handled: true, Event: "workflow_dispatch", Repo: "acme/widgets", DefaultBranch: "main", Actor: "alice",
		Numbers: []int{7}, Pipeline: "release-check"}, got)
	got, err = route("workflow_dispatch", payload(map[string]any{"pipeline": "release-check", "number": 12.0}))
	require.NoError(t, err)
	assert.Equal(t, []int{12}, got.Numbers)
	got, err = route("workflow_dispatch", payload(map[string]any{"name": "Mona"}))
	require.NoError(t, err)
	assert.False(t, got.Handled)
	_, err = route("workflow_dispatch", payload(map[string]any{"pipeline": "release-check", "number": "seven"}))
	assert.ErrorContains(t, err, "number")
	_, err = route("workflow_dispatch", payload(map[string]any{"number": "7"}))
	assert.ErrorContains(t, err, "pipeline")
}
