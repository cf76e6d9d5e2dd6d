package load

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateUpdateToken: merge_pr with when_behind: update written out, and an
// update_branch stage (a parallel branch's too), are warned of at their line; the default
// when_behind, escalate and keep_up_to_date (written only for an app's token) are not.
func TestValidateUpdateToken(t *testing.T) {
	const src = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: both
        type: parallel
        branches:
          - {id: up, type: action, action: update_branch}
          - {id: tag, type: action, action: add_label, config: {label: x}}
      - {id: first, type: action, action: update_branch}
      - {id: m, type: action, action: merge_pr, config: {when_behind: update}}
  q:
    trigger: {event: pull_request.labeled}
    stages:
      - {id: m, type: action, action: merge_pr}
  r:
    trigger: {event: pull_request.edited}
    stages:
      - {id: m, type: action, action: merge_pr, config: {when_behind: escalate}}
  s:
    trigger: {event: pull_request.opened}
    keep_up_to_date: true
    stages:
      - {id: m, type: action, action: merge_pr, config: {when_behind: escalate}}
`
	cfg, err := Load(".github/pipelines.yaml", []byte(src), nil)
	require.NoError(t, err)
	var got []string
	for _, w := range cfg.Warnings {
		if strings.Contains(w.Error(), "GITHUB_TOKEN pushes") {
			got = append(got, w.Error())
		}
	}
	require.Len(t, got, 3, strings.Join(got, "\n"))
	assert.Contains(t, got[0], `.github/pipelines.yaml:9:13: stage "up" of pipeline "p": update_branch brings the pull request up to date with a commit the action pushes`)
	assert.Contains(t, got[1], `.github/pipelines.yaml:11:9: stage "first" of pipeline "p": update_branch`)
	assert.Contains(t, got[2], `.github/pipelines.yaml:12:9: stage "m" of pipeline "p": merge_pr with when_behind: update`)
	assert.Contains(t, got[2], "give the action a GitHub App's token (docs/tokens.md), or say when_behind: escalate")
}
