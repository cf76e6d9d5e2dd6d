package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentLogin(t *testing.T) {
	cfg, err := Load("p.yaml", []byte(`version: 1
agents:
  a: {dispatch: workflow, workflow: a.yml, login: "review-agent[bot]"}
  b: {dispatch: assign, assignee: copilot}
  c: {dispatch: assign, assignee: copilot, login: copilot-reviewer}
  d: {dispatch: label, label: x}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: s, type: agent, agent: a, on_complete: t}
      - {id: t, type: agent, agent: b, on_complete: u}
      - {id: u, type: agent, agent: c, on_complete: v}
      - {id: v, type: agent, agent: d}
`), nil)
	require.NoError(t, err)
	var logins []string
	for _, a := range cfg.Agents {
		logins = append(logins, a.ReviewLogin())
	}
	assert.Equal(t, []string{"review-agent[bot]", "copilot", "copilot-reviewer", ""}, logins)
}

func TestAgentLoginMustBeALogin(t *testing.T) {
	for _, bad := range []string{`"@review-bot"`, `"review bot"`, `"-bot"`, `"a--b"`, `""`, `[a]`, strings.Repeat("a", 40)} {
		_, err := Load("p.yaml", []byte(`version: 1
agents:
  a: {dispatch: label, label: x, login: `+bad+`}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: s, type: agent, agent: a}
`), nil)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), `p.yaml:3:`, bad)
		assert.Contains(t, err.Error(), `"login" must be`, bad)
	}
}
