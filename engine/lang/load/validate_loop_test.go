package load

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Loops through a gate that are bounded, wait, or can change what failed the gate load.
func TestGateLoopsThatWaitLoad(t *testing.T) {
	src := `version: 1
agents:
  fixer: {dispatch: workflow, workflow: fix.yml}
pipelines:
  bounded:
    trigger: {event: pull_request.opened}
    stages:
      - {id: ci, type: gate, conditions: [{check: ci_status}], on_fail: {goto: tell, max_iterations: 2, then: escalate}}
      - {id: tell, type: action, action: comment, config: {body: "CI failed"}, on_success: ci}
  through-agent:
    trigger: {event: pull_request.opened}
    stages:
      - {id: ci, type: gate, conditions: [{check: ci_status}], on_fail: fix}
      - {id: fix, type: agent, agent: fixer, on_complete: tell}
      - {id: tell, type: action, action: comment, config: {body: "fixed"}, on_success: ci}
  notify-and-wait:
    trigger: {event: pull_request.opened}
    stages:
      - id: ci
        type: gate
        conditions: [{check: ci_status}]
        on_fail: {when: {check_failed: ci_status}, action: notify_and_wait, notify: {target: pr, message: "CI failed"}}
  counts:
    trigger: {event: pull_request.opened}
    variables: {n: 0}
    stages:
      - {id: enough, type: gate, conditions: [{check: ci_status}], on_fail: bump}
      - {id: bump, type: action, action: set_variable, config: {name: n, value: "{{ variables.n + 1 }}"}, on_success: enough}
  on-pass:
    trigger: {event: pull_request.opened}
    stages:
      - {id: ready, type: gate, conditions: [{check: label_present, label: again}], on_pass: untag}
      - {id: untag, type: action, action: remove_label, config: {label: again}, on_success: ready}
`
	_, err := Load("p.yaml", []byte(src), fakeRegistry{})
	require.NoError(t, err)
}
