package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
)

// An agent's report that completes the run writes the pipeline's success at once, in the
// report's own invocation.
func TestReportWritesTheStatus(t *testing.T) {
	h := newHarness(t, `version: 1
settings: {status_check: true}
agents:
  reviewer: {dispatch: label, label: review-me}
pipelines:
  review:
    trigger: {event: pull_request.opened}
    stages:
      - {id: review, type: agent, agent: reviewer}
`)
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	latest, _ := h.Fake.HeadStatuses("acme/widgets", 7)
	assert.Equal(t, "pending", latest["pipeline-action/review"].State)

	env := runtest.Command(h.Fake, h.Fake.BotToken())
	nonce := h.stateRuns(7)[0].Stages["review"].Nonce
	code, out := reportOut(t, env, "", "--run", "review/7/1", "--stage", "review", "--attempt", "1", "--nonce", nonce, "--verdict", "complete")
	require.Equal(t, 0, code, out)
	latest, count := h.Fake.HeadStatuses("acme/widgets", 7)
	assert.Equal(t, "success", latest["pipeline-action/review"].State)
	assert.Equal(t, 2, count["pipeline-action/review"])
}
