package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDoctorCountsWarnings checks that doctor loads the config as validate does, with
// the passes that only warn (an invocation skips them).
func TestDoctorCountsWarnings(t *testing.T) {
	const config = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: a, type: gate, conditions: [{check: ci_status}], on_pass: complete}
      - {id: b, type: gate, conditions: [{check: ci_status}]}
`
	h := newDoctorHarness(t, config, nil)
	_, out, errOut := h.doctor(h.Fake.BotToken())
	assert.Contains(t, out, "ok          config .github/pipelines.yaml on main validates: 1 pipeline, 1 warning (`pipeline-action validate` lists them)", out+errOut)
}
