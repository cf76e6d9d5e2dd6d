package run

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A status event of the action's own context (settings.status_check) is routed to be
// checked against the state, with the pull request its link names;
// anyone else's status is handled as CI.
func TestOwnStatusEventIsChecked(t *testing.T) {
	own := `{"sha": "abc", "context": "pipeline-action/review", "state": "success", "repository": {"full_name": "acme/widgets"},
		"target_url": "https://github.example.com/acme/widgets/pull/7#issuecomment-12"}`
	got, err := route("status", []byte(own))
	require.NoError(t, err)
	assert.True(t, got.Handled)
	assert.Equal(t, "abc", got.SHA)
	assert.Equal(t, &ownStatus{Context: "pipeline-action/review", State: "success", Hint: 7}, got.OwnStatus)

	other := `{"sha": "abc", "context": "ci/lint", "state": "success", "repository": {"full_name": "acme/widgets"}}`
	got, err = route("status", []byte(other))
	require.NoError(t, err)
	assert.True(t, got.Handled)
	assert.Equal(t, "abc", got.SHA)
	assert.Nil(t, got.OwnStatus)
}

// The link names a pull request of this repository, or none.
func TestStatusHint(t *testing.T) {
	for url, want := range map[string]int{
		"https://github.com/acme/widgets/pull/7#issuecomment-5000000001": 7,
		"https://github.com/acme/widgets/pull/12":                        12,
		"https://github.com/ACME/Widgets/pull/3":                         3,
		"https://github.com/acme/other/pull/7":                           0,
		"https://evil.example.com/acme/widgets/pull/7?x=1":               0,
		"https://github.com/acme/widgets/pull/7/files":                   0,
		"": 0,
	} {
		assert.Equal(t, want, statusHint(url, "acme/widgets"), url)
	}
}

func TestWantedStatuses(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	st := &model.State{Runs: []*model.Run{
		{Pipeline: "review", Status: model.RunFailed, Stage: "gate", Message: "check \"test\" failed\nmore", Head: "h1", StartedAt: at},
		{Pipeline: "review", Status: model.RunWaiting, Stage: "gate", Head: "h1", StartedAt: at.Add(time.Minute)}, // the latest
		{Pipeline: "merge", Status: model.RunCompleted, Head: "h1", StartedAt: at},
		{Pipeline: "old", Status: model.RunCompleted, Head: "h0aaaaaaaaa", StartedAt: at},
		{Pipeline: "bad", Status: model.RunFailed, Stage: "gate", Message: "check \"test\" failed\nmore", StartedAt: at},
		{Pipeline: "gone", Status: model.RunCancelled, Stage: "gate", StartedAt: at},
		{Pipeline: "child", Status: model.RunCompleted, Parent: "review/7/1/sub", StartedAt: at},
	}}
	assert.Equal(t, []commitStatus{
		{"pipeline-action/bad", "failure", `failed at gate: check "test" failed`},
		{"pipeline-action/gone", "error", "cancelled at gate"},
		{"pipeline-action/merge", "success", "completed"},
		{"pipeline-action/old", "pending", "ended on h0aaaaa; not run on this commit"},
		{"pipeline-action/review", "pending", "not finished on this commit"},
	}, wantedStatuses(st, "h1"))
}

// The status links to the state comment, and says what the run waits for in GitHub's
// 140 characters.
func TestStatusLinksToTheStateComment(t *testing.T) {
	h := newHarness(t, "version: 1\nsettings: {status_check: true}\n"+`pipelines:
  review:
    trigger: {event: pull_request.opened}
    stages:
      - {id: approved, type: gate, conditions: [{check: human_approved}]}
`)
	code, log, _, _ := h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}), func(env map[string]string) {
		env["GITHUB_SERVER_URL"] = "https://github.example.com"
	})
	require.Equal(t, 0, code, log)
	comments := h.Fake.Comments("acme/widgets", 7)
	require.Len(t, comments, 1)
	latest, count := h.Fake.HeadStatuses("acme/widgets", 7)
	assert.Equal(t, ghfake.StatusView{Context: "pipeline-action/review", State: "pending", Description: "not finished on this commit",
		TargetURL: "https://github.example.com/acme/widgets/pull/7#issuecomment-" + strconv.FormatInt(comments[0].ID, 10)}, latest["pipeline-action/review"])
	assert.Equal(t, 1, count["pipeline-action/review"])
	assert.Contains(t, log, "commit status pipeline-action/review is pending on ")
}

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
	log := h.OpenPR7()
	echo := linked(t, h.Fake.SetStatusAs("acme/widgets", 7, "pipeline-action/review", "pending", ghfake.BotLogin),
		"https://github.com/acme/widgets/pull/7")
	forged := h.Fake.SetStatusAs("acme/widgets", 7, "pipeline-action/review", "success", "mallory")

	h.Fake.ResetStats()
	code, log, _, _ := h.Deliver(echo)
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
	log := h.OpenPR7()
	forged := h.Fake.SetStatusAs("acme/widgets", 7, "pipeline-action/review", "success", "mallory")
	h.Fake.ResetStats()
	code, log, _, _ := h.DeliverWith(forged, func(env map[string]string) { env["INPUT_DRY_RUN"] = "true" })
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "dry run: would write the commit status pipeline-action/review pending on #7")
	assert.Equal(t, map[string]int{"graphql": 2}, h.Fake.Stats())
}

// An agent's report that completes the run writes the pipeline's success at once, in the
// report's own invocation.
func TestReportWritesTheStatus(t *testing.T) {
	h := newHarness(t, reviewConfig("settings: {status_check: true}\n", "{id: review, type: agent, agent: reviewer}"))
	h.OpenPR7()
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
