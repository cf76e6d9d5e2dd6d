package sim

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dispatches at_most bounds an agent's dispatches; prs.N.comments_at_most bounds the
// action's state comments on the PR. Each says what it found when it does not hold.
func TestExpectBounds(t *testing.T) {
	cfg, err := os.ReadFile("testdata/scenarios/agent-dispatch-kinds/pipelines.yaml")
	require.NoError(t, err)
	sim, out := newSim(t, `
repo: acme/widgets
token: app
users: {dev: write}
steps:
  - open_pr: {number: 7, author: dev}
  - redeliver: 1
  - comment: {pr: 7, user: "github-actions[bot]", body: "<!-- pipeline-action:state v3 -->", deliver: false}
expect:
  prs: {7: {comments_at_most: 1}}
  dispatches: [{agent: triage, at_most: 1}, {agent: triage, at_most: 0}, {agent: triage, count: 1, at_most: 5}, {agent: nobody, at_most: 1}]
`, string(cfg))
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	assert.Equal(t, 3, failed, out.String())
	assert.Contains(t, out.String(), "   ✓ dispatches of agent triage: at most 1\n")
	assert.Contains(t, out.String(), "   ✗ dispatches of agent triage: want at most 0, found 1\n")
	assert.Contains(t, out.String(), "   ✓ dispatches of agent triage: 1\n   ✓ dispatches of agent triage: at most 5\n")
	assert.Contains(t, out.String(), "   ✗ dispatches of agent nobody: want at most 1, found no such agent in the config\n")
	assert.Contains(t, out.String(), "   ✗ #7 state comments by the action: want at most 1, found 2\n")
}
