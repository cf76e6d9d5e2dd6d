package run

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
)

const (
	testStateKey  = "k3y-0f-the-action-9d2c51e0"
	otherStateKey = "n0t-the-k3y-4b1f77a0c3de"
)

// withKey sets the state_key input (and state_key_previous when previous is given).
func withKey(key string, previous ...string) func(map[string]string) {
	return func(env map[string]string) {
		env["INPUT_STATE_KEY"] = key
		if len(previous) > 0 {
			env["INPUT_STATE_KEY_PREVIOUS"] = strings.Join(previous, "\n")
		}
	}
}

func TestStateKeyMaskedAndSigns(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	code, log, outputs, summary := h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}), withKey(testStateKey))
	require.Equal(t, 0, code, log)
	runtest.AssertMasked(t, log, testStateKey)
	assert.True(t, strings.Index(log, "::add-mask::") < strings.Index(log, "a state key is set"), "masked before anything else is logged")
	assert.NotContains(t, outputs, testStateKey)
	assert.NotContains(t, summary, testStateKey)

	keys, err := state.NewKeys(testStateKey)
	require.NoError(t, err)
	text := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)["pr-7.json"]
	assert.Contains(t, text, `"state_hmac"`)
	assert.Empty(t, state.VerifyFile(text, "pr-7.json", "acme/widgets#7", keys))
	assert.NotContains(t, text, testStateKey)

	// The next event, with the key, goes on from the signed state and ignores nothing; it
	// shows the approval, and binds the state into the comment, signed.
	code, log, _, _ = h.DeliverWith(h.Fake.Review("acme/widgets", 7, "alice", "approved", ""), withKey(testStateKey))
	require.Equal(t, 0, code, log)
	runtest.AssertMasked(t, log, testStateKey)
	assert.NotContains(t, log, "was ignored")
	comments := h.Fake.Comments("acme/widgets", 7)
	require.Len(t, comments, 1)
	assert.Contains(t, comments[0].Body, "pipeline-action:state v4 ", "the marker is signed")
	assert.NotContains(t, comments[0].Body, testStateKey)
	_, why, err := state.CheckKeyed(trustedComment(comments[0]), keys)
	require.NoError(t, err)
	assert.Empty(t, why)
}

func TestStateKeyInvalidIsRefusedUnprinted(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	short := "s3cr3t-short"
	code, log, _, _ := h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}), withKey(short))
	assert.Equal(t, 2, code)
	runtest.AssertMasked(t, log, short)
	assert.Contains(t, log, "input state_key: the state key is 12 characters long")
	assert.Empty(t, h.Fake.Comments("acme/widgets", 7), "nothing written")

	code, log, _, _ = h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 8, Author: "dev"}), func(env map[string]string) {
		env["INPUT_STATE_KEY_PREVIOUS"] = otherStateKey
	})
	assert.Equal(t, 2, code)
	runtest.AssertMasked(t, log, otherStateKey)
	assert.Contains(t, log, "without a current one")

	// A key of two lines: each line masked before anything else, then refused.
	code, log, _, _ = h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 9, Author: "dev"}), withKey(testStateKey+"\n"+otherStateKey))
	assert.Equal(t, 2, code)
	runtest.AssertMasked(t, log, testStateKey)
	runtest.AssertMasked(t, log, otherStateKey)
	assert.Contains(t, log, "the state key holds white space")
}

// Adopting a key: the state written without it is not trusted any more (reported, left
// alone); runs go on from what can be verified.
func TestStateKeyIgnoresUnsignedState(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	log := h.OpenPR7()
	code, log, _, _ := h.Deliver(h.Fake.Label("acme/widgets", 7, "automerge", true)) // binds the state into the comment
	require.Equal(t, 0, code, log)
	code, log, _, _ = h.DeliverWith(h.Fake.Review("acme/widgets", 7, "alice", "approved", ""), withKey(testStateKey))
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "the state file on pipeline-action/state was ignored: pr-7.json: it carries no signature made with the state key")
	assert.Contains(t, log, "the state in comment 5000000001 was ignored: it carries no signature made with the state key")
	comments := h.Fake.Comments("acme/widgets", 7)
	require.Len(t, comments, 2, "a fresh, signed state comment; the old one left alone")
	assert.Contains(t, comments[1].Body, "was ignored: it carries no signature made with the state key")
}

// Rotation: a state signed with the previous key is trusted while state_key_previous
// holds it, and signed anew with the current key when next written; without it, it is not.
func TestStateKeyRotation(t *testing.T) {
	h := newHarness(t, exampleYAML(t))
	code, log, _, _ := h.DeliverWith(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}), withKey(otherStateKey))
	require.Equal(t, 0, code, log)
	code, log, _, _ = h.DeliverWith(h.Fake.Label("acme/widgets", 7, "automerge", true), withKey(otherStateKey)) // binds the state in
	require.Equal(t, 0, code, log)
	code, log, _, _ = h.DeliverWith(h.Fake.Review("acme/widgets", 7, "alice", "commented", "looks fine"), withKey(testStateKey, otherStateKey))
	require.Equal(t, 0, code, log)
	runtest.AssertMasked(t, log, otherStateKey)
	runtest.AssertMasked(t, log, testStateKey)
	assert.NotContains(t, log, "was ignored")

	current, err := state.NewKeys(testStateKey)
	require.NoError(t, err)
	comments := h.Fake.Comments("acme/widgets", 7)
	require.Len(t, comments, 1)
	_, why, err := state.CheckKeyed(trustedComment(comments[0]), current)
	require.NoError(t, err)
	assert.Empty(t, why, "signed anew with the current key")
	text := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)["pr-7.json"]
	assert.Empty(t, state.VerifyFile(text, "pr-7.json", "acme/widgets#7", current))

	// The rotation over: the old key verifies nothing any more.
	h2 := newHarness(t, exampleYAML(t))
	code, log, _, _ = h2.DeliverWith(h2.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}), withKey(otherStateKey))
	require.Equal(t, 0, code, log)
	code, log, _, _ = h2.DeliverWith(h2.Fake.Review("acme/widgets", 7, "alice", "commented", "looks fine"), withKey(testStateKey))
	require.Equal(t, 0, code, log)
	assert.Contains(t, log, "its signature does not verify with the state key")
}

var keyedReportConfig = reviewConfig("", "{id: review, type: agent, agent: reviewer, on_complete: merge}",
	"{id: merge, type: action, action: merge_pr}")

// A report made with the key is signed; one made with another key writes a state the
// keyed action does not trust; one made without a key (a workflow that cannot read the
// environment's secret) finds the state signed and stops, writing nothing
// (TestStateKeyMissingWritesNothing). (Such a workflow holds a token that may write: what
// it can do with the token directly, as merging through the API, no key stops; see
// docs/security.md.)
func TestStateKeyReports(t *testing.T) {
	for _, tc := range []struct {
		name, reportKey string
		nextLog         string // what the keyed action logs on the next event
	}{
		{name: "with the key", reportKey: testStateKey},
		{name: "with another key", reportKey: otherStateKey, nextLog: "its signature does not verify with the state key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, keyedReportConfig)
			// GitHub's clock and the runner's stand still between the steps and move as the
			// test says: the run's number (the minutes since the pull request was created)
			// and the config's date before the pull request hold however long a busy
			// machine takes over each step.
			var mu sync.Mutex
			opened := time.Now().UTC().Truncate(time.Second)
			at := opened
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
			setClock := func(t time.Time) { mu.Lock(); defer mu.Unlock(); at = t }
			h.Fake.SetClock(clock)
			h.now = clock
			ev := h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"})
			setClock(opened.Add(5 * time.Second))
			code, log, _, _ := h.DeliverWith(ev, withKey(testStateKey))
			require.Equal(t, 0, code, log)
			// Dated before the pull request, so that a run started again from the facts is a
			// late start its trigger allows.
			setClock(opened.Add(-time.Minute))
			h.Fake.SetFile("acme/widgets", "main", DefaultConfigPath, strings.Replace(keyedReportConfig, "on_complete: merge", "on_complete: complete", 1))
			setClock(opened.Add(20 * time.Second)) // within the run's first minute

			env := runtest.Command(h.Fake, h.Fake.BotToken())
			if tc.reportKey != "" {
				env["INPUT_STATE_KEY"] = tc.reportKey
			}
			keys, err := state.NewKeys(testStateKey)
			require.NoError(t, err)
			// The nonce the dispatch gave the agent: signed with the key.
			st, err := state.DecodeFile(h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)["pr-7.json"], "acme/widgets#7")
			require.NoError(t, err)
			nonce := model.SignedNonce(keys, "acme/widgets#7", "review/7/1", "review", st.Runs[0].Stages["review"].Nonce)
			code, out := reportOutAt(t, clock, env, "", "--run", "review/7/1", "--stage", "review", "--attempt", "1", "--nonce", nonce, "--verdict", "complete")
			require.Equal(t, 0, code, out)
			runtest.AssertMasked(t, out, tc.reportKey)
			if tc.nextLog == "" {
				assert.Contains(t, out, "agent reviewer reported complete (attempt 1)")
			} else {
				// The state signed with the key unseen, the run started again from the facts,
				// under a new nonce: the report answers a dispatch it did not make.
				assert.Contains(t, out, "refused: this attempt's agent has not been dispatched yet")
			}
			text := h.Fake.BranchFiles("acme/widgets", lang.DefaultStateBranch)["pr-7.json"]
			comments := h.Fake.Comments("acme/widgets", 7)
			require.NotEmpty(t, comments)
			_, why, err := state.CheckKeyed(trustedComment(comments[len(comments)-1]), keys)
			require.NoError(t, err)
			if tc.nextLog == "" {
				assert.Empty(t, state.VerifyFile(text, "pr-7.json", "acme/widgets#7", keys), "the report's state is signed")
				assert.Empty(t, why)
			} else {
				assert.NotEmpty(t, state.VerifyFile(text, "pr-7.json", "acme/widgets#7", keys), "the report's state is not signed with the key")
				assert.NotEmpty(t, why)
			}

			// The pipelines workflow, with the key, on the next event.
			setClock(opened.Add(40 * time.Second))
			code, log, _, _ = h.DeliverWith(h.Fake.Review("acme/widgets", 7, "alice", "commented", "ok"), withKey(testStateKey))
			require.Equal(t, 0, code, log)
			if tc.nextLog == "" {
				assert.NotContains(t, log, "was ignored")
			} else {
				assert.Contains(t, log, "the state file on pipeline-action/state was ignored: pr-7.json: "+tc.nextLog)
				assert.NotContains(t, log, "the state in comment 5000000001 was ignored", "the action's own signed comment was left alone, and is gone on from")
			}
		})
	}
}
