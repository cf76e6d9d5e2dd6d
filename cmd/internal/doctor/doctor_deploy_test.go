package doctor

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/gates"
)

// A deployment check, through a custom gate too, needs the deployment_status event.
func TestEventsNeededDeployment(t *testing.T) {
	src := `version: 1
settings:
  custom_gates:
    ready:
      params: {environment: {default: staging}}
      conditions: [{check: deployment, environment: "{{ params.environment }}"}]
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: g, type: gate, conditions: [{check: ready}]}
`
	cfg, err := engine.Load("p.yaml", []byte(src), gates.Default())
	require.NoError(t, err)
	assert.Contains(t, eventsNeeded(cfg), needEvent{"deployment_status", "a deployment check"})
	cfg, err = engine.Load("p.yaml", []byte("version: 1\npipelines:\n  p:\n    stages: [{id: g, type: gate, conditions: [{check: ci_status}]}]\n"), gates.Default())
	require.NoError(t, err)
	assert.NotContains(t, eventsNeeded(cfg), needEvent{"deployment_status", "a deployment check"})
}
