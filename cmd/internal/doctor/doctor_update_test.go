package doctor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
)

// TestActionsTokenSteps: a step that runs the action to handle events or sweep gets the
// workflow's GITHUB_TOKEN when it names no token or names that one; an app's token, or a
// report step, is not counted.
func TestActionsTokenSteps(t *testing.T) {
	const text = `jobs:
  a:
    steps:
      - uses: org/pipeline-action@v1
      - uses: org/pipeline-action@v1
        with: {command: sweep, token: "${{ secrets.GITHUB_TOKEN }}"}
      - uses: org/pipeline-action@v1
        with: {token: "${{github.token}}"}
      - uses: org/pipeline-action@v1
        with: {token: "${{ steps.app.outputs.token }}"}
      - uses: org/pipeline-action@v1
        with: {command: report}
      - uses: actions/checkout@v4
`
	w, err := parseWorkflow(ghapi.WorkflowFile{Path: ".github/workflows/p.yml", Blob: ghapi.Blob{Text: text}})
	require.NoError(t, err)
	assert.Equal(t, []tokenStep{{".github/workflows/p.yml", "run"}, {".github/workflows/p.yml", "sweep"}, {".github/workflows/p.yml", "run"}},
		actionsTokenSteps(w))
}
