package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateTokenEvents: a pipeline relying on an event the action's own GITHUB_TOKEN
// causes gets a warning at the line that relies on it; the same config without the write
// (or with an app listener) gets none.
func TestValidateTokenEvents(t *testing.T) {
	const relies = `version: 1
agents:
  coder: {dispatch: comment, body: "@claude implement this"}
  triage: {dispatch: label, label: triage}
  copilot: {dispatch: comment, body: "@copilot fix", listener: app}
  runner: {dispatch: workflow, workflow: agent.yml}
pipelines:
  lands:
    trigger: {event: pull_request.opened}
    stages:
      - {id: tag, type: action, action: add_label, config: {label: Reviewed}}
      - {id: m, type: action, action: merge_pr}
    on_complete:
      - create_issue: {title: follow up}
      - label: [shipped]
  on-issue:
    scope: issue
    trigger: {event: issues.opened}
    stages:
      - {id: w, type: agent, agent: runner}
  after-merge:
    trigger: {event: pull_request.closed}
    stages:
      - {id: w, type: agent, agent: runner}
  on-reviewed:
    trigger: {event: pull_request.labeled, conditions: {labels: [reviewed]}}
    stages:
      - {id: w, type: agent, agent: copilot}
  on-any-label:
    trigger: {event: pull_request.labeled}
    stages:
      - {id: w, type: agent, agent: coder}
  on-human-label:
    trigger: {event: pull_request.labeled, conditions: {labels: [ready]}}
    stages:
      - {id: w, type: agent, agent: triage}
`
	cfg, err := Load(".github/pipelines.yaml", []byte(relies), nil)
	require.NoError(t, err)
	var got []string
	for _, w := range cfg.Warnings {
		got = append(got, w.Error())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`.github/pipelines.yaml:3:3: agent "coder" is dispatched by a comment that a GitHub Actions workflow receives`,
		`.github/pipelines.yaml:4:3: agent "triage" is dispatched by a label that a GitHub Actions workflow receives`,
		`.github/pipelines.yaml:18:14: pipeline "on-issue" starts on issues.opened, and the action opens issues itself (create_issue of pipeline "lands" at .github/pipelines.yaml:14:9)`,
		`.github/pipelines.yaml:22:14: pipeline "after-merge" starts on pull_request.closed, and the action merges pull requests itself (stage "m" of pipeline "lands" at .github/pipelines.yaml:12:9)`,
		`.github/pipelines.yaml:26:14: pipeline "on-reviewed" starts on pull_request.labeled, and the action adds label "Reviewed" itself (stage "tag" of pipeline "lands" at .github/pipelines.yaml:11:9): GitHub starts no workflow for an event caused by the action's GITHUB_TOKEN, so this pipeline starts only late`,
		`.github/pipelines.yaml:30:14: pipeline "on-any-label" starts on pull_request.labeled, and the action adds label "triage" itself (to dispatch agent "triage" at .github/pipelines.yaml:4:3): GitHub starts no workflow for an event caused by the action's GITHUB_TOKEN, so that label never starts this pipeline`,
	} {
		assert.Contains(t, all, want)
	}
	assert.Len(t, got, 6, "no warning for the app listener, the workflow agent, or a label only humans add:\n%s", all)
	for _, w := range cfg.Warnings {
		assert.Equal(t, KindWarning, w.Kind)
		assert.Contains(t, w.Message, "unless the action runs with an app token")
	}

	// Without the writes nothing is relied on.
	quiet := `version: 1
agents:
  runner: {dispatch: workflow, workflow: agent.yml}
pipelines:
  on-issue:
    scope: issue
    trigger: {event: issues.opened}
    stages:
      - {id: w, type: agent, agent: runner}
  on-label:
    trigger: {event: pull_request.labeled, conditions: {labels: [ready]}}
    stages:
      - {id: tag, type: action, action: add_label, config: {label: triaged}}
`
	cfg, err = Load(".github/pipelines.yaml", []byte(quiet), nil)
	require.NoError(t, err)
	assert.Empty(t, cfg.Warnings)
}

func TestAgentListener(t *testing.T) {
	_, err := Load("p.yaml", []byte(`version: 1
agents:
  a: {dispatch: workflow, workflow: a.yml, listener: app}
  b: {dispatch: label, label: x, listener: robot}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: s, type: agent, agent: a}
      - {id: t, type: agent, agent: b}
`), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `p.yaml:3:44: key "listener" does not apply to dispatch "workflow"`)
	assert.Contains(t, err.Error(), `p.yaml:4:44: "listener" must be one of`)
	assert.Contains(t, err.Error(), `"robot"`)
}
