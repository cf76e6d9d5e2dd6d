package run

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

const statusCheckConfig = "version: 1\nsettings: {status_check: true}\n" + `pipelines:
  review:
    trigger: {event: pull_request.opened}
    stages:
      - {id: approved, type: gate, conditions: [{check: human_approved}]}
`

// linked is ev with the target URL the action gives its statuses.
func linked(t *testing.T, ev ghfake.Event, url string) ghfake.Event {
	var p map[string]any
	require.NoError(t, json.Unmarshal(ev.Payload, &p))
	p["target_url"] = url
	b, err := json.Marshal(p)
	require.NoError(t, err)
	ev.Payload = b
	return ev
}

// A status event of the action's own context that carries what the state asks for — the
// echo of the action's own write, which an app's token delivers — costs one read and no
// write, even when the head shows something else meanwhile (another pull request sharing
// the head, another writer): the action never answers itself. The forged status's own
// event sets it back, with one write.
func TestOwnStatusEchoCostsOneReadAndNoWrite(t *testing.T) {
	h := newHarness(t, statusCheckConfig)
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	echo := linked(t, h.Fake.SetStatusAs("acme/widgets", 7, "pipeline-action/review", "pending", ghfake.BotLogin),
		"https://github.com/acme/widgets/pull/7")
	forged := h.Fake.SetStatusAs("acme/widgets", 7, "pipeline-action/review", "success", "mallory")

	h.Fake.ResetStats()
	code, log, _, _ = h.Deliver(echo)
	require.Equal(t, 0, code, log)
	assert.Equal(t, map[string]int{"graphql": 1}, h.Fake.Stats(), "one read, no write")
	assert.Contains(t, log, "commit status pipeline-action/review is pending, as the state asks: nothing to do")
	latest, _ := h.Fake.HeadStatuses("acme/widgets", 7)
	assert.Equal(t, "success", latest["pipeline-action/review"].State, "left to the forged status's own event")

	h.Fake.ResetStats()
	code, log, _, _ = h.Deliver(forged)
	require.Equal(t, 0, code, log)
	assert.Equal(t, 1, h.Fake.Stats()["repos/create-commit-status"], "%v", h.Fake.Stats())
	assert.Contains(t, log, "commit status pipeline-action/review was set to success by mallory, not by this action's state: set back to pending")
	latest, count := h.Fake.HeadStatuses("acme/widgets", 7)
	assert.Equal(t, "pending", latest["pipeline-action/review"].State)
	assert.Equal(t, 4, count["pipeline-action/review"])
	assert.Equal(t, "https://github.com/acme/widgets/pull/7", latest["pipeline-action/review"].TargetURL, "the link names the pull request")

	// A link to another pull request, whose head is not the commit, is only a hint: the
	// pull requests whose head it is are found and checked.
	misled := linked(t, h.Fake.SetStatusAs("acme/widgets", 7, "pipeline-action/review", "success", "mallory"),
		"https://github.com/acme/widgets/pull/99#issuecomment-1")
	code, log, _, _ = h.Deliver(misled)
	require.Equal(t, 0, code, log)
	latest, _ = h.Fake.HeadStatuses("acme/widgets", 7)
	assert.Equal(t, "pending", latest["pipeline-action/review"].State, log)
}

// In dry run, a forged status is reported and not set back.
func TestOwnStatusDryRunWritesNothing(t *testing.T) {
	h := newHarness(t, statusCheckConfig)
	code, log, _, _ := h.Deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	forged := h.Fake.SetStatusAs("acme/widgets", 7, "pipeline-action/review", "success", "mallory")
	h.Fake.ResetStats()
	code, log, _, _ = h.DeliverWith(forged, func(env map[string]string) { env["INPUT_DRY_RUN"] = "true" })
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "dry run: would write the commit status pipeline-action/review pending on #7")
	assert.Equal(t, map[string]int{"graphql": 2}, h.Fake.Stats())
}
