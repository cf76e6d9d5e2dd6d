package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// A run stopped for a person sets the status output to escalated, as action.yml says: here a
// webhook to a private address, which the action refuses without sending it.
func TestRunOutputsEscalated(t *testing.T) {
	h := newHarness(t, `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: hook
        type: webhook
        request: {url: "https://127.0.0.1:9/refused", method: POST}
        on_failure: escalate
`)
	code, log, outputs, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	assert.Regexp(t, `status<<(\S+)\nescalated\n`, outputs)
}
