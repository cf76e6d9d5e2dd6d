package engine

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/snapshot"
	"github.com/org/pipeline-action/engine/lang"
)

// testSigner signs nonces as state.Keys does: HMAC-SHA256 with a key.
type testSigner struct{ key string }

func (s testSigner) SignNonce(msg string) string {
	h := hmac.New(sha256.New, []byte(s.key))
	h.Write([]byte(msg))
	return hex.EncodeToString(h.Sum(nil))
}

func (s testSigner) VerifyNonce(msg, tag string) bool {
	return hmac.Equal([]byte(s.SignNonce(msg)), []byte(tag))
}

// A report counts only with the nonce of the stage's live attempt: none, another
// attempt's, or one made up is refused and logged, and changes nothing.
func TestAgentReportNeedsTheLiveAttemptsNonce(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	res := atAnalyze(t, cfg, f)
	live := res.State.Runs[0].Stages["analyze"].Nonce
	earlier := res.State.Runs[0].Stages["implement"].Nonce
	require.Regexp(t, `^1-[0-9a-f]{16}$`, live)
	require.NotEqual(t, live, earlier)
	with := func(nonce string) model.Input {
		in := report("loop/7/1", "analyze", 1, lang.VerdictComplete, nil)
		in.Report.Nonce = nonce
		return in
	}
	for name, tc := range map[string]struct{ nonce, want string }{
		"none":            {"", "it carries no nonce"},
		"another stage's": {earlier, "its nonce is not the one of the stage's live attempt"},
		"made up":         {"1-0000000000000000", "its nonce is not the one of the stage's live attempt"},
	} {
		out := Step(cfg, res.State, with(tc.nonce), f, t0.Add(time.Minute))
		assert.False(t, out.Changed, name)
		assert.Contains(t, joinLog(out.Log), "refused: "+tc.want, name)
	}
	out := Step(cfg, res.State, with(live), f, t0.Add(time.Minute))
	assert.Equal(t, model.StageSucceeded, out.State.Runs[0].Stages["analyze"].Status)

	// A report that arrives with the event that starts the run (its state was lost): the
	// attempt it names has not been dispatched, so the report answers another dispatch.
	in := report("loop/7/1", "implement", 1, lang.VerdictComplete, nil)
	in.Report.Nonce, in.Event = earlier, "pull_request.opened"
	out = Step(cfg, nil, in, f, t0.Add(time.Hour))
	assert.Contains(t, joinLog(out.Log), "refused: this attempt's agent has not been dispatched yet")
	assert.Equal(t, "implement", out.State.Runs[0].Stage)

	// An attempt dispatched by a version of the action without nonces takes no report.
	old := snapshot.Clone(res.State)
	old.Runs[0].Stages["analyze"].Nonce = ""
	out = Step(cfg, old, with(""), f, t0.Add(time.Minute))
	assert.False(t, out.Changed)
	assert.Contains(t, joinLog(out.Log), "dispatched without a nonce")
}

// With the state key, the nonce a dispatch carries is signed; a report must echo it
// signed with the key (the current one, or one it replaces).
func TestAgentNonceSignedWithTheStateKey(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	key := testSigner{"0123456789abcdef-key"}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened", Nonces: key}, f, t0)
	require.Len(t, res.Effects, 1)
	plain := res.State.Runs[0].Stages["implement"].Nonce
	sent := res.Effects[0].Inputs["nonce"]
	require.True(t, strings.HasPrefix(sent, plain+"."), sent)
	assert.NotContains(t, string(model.MustJSON(res.State)), strings.TrimPrefix(sent, plain+"."), "the signature is not in the public state")
	res = dispatched(t, cfg, res, f, t0)

	with := func(nonce string, signer model.NonceSigner) model.Input {
		in := report("loop/7/1", "implement", 1, lang.VerdictComplete, nil)
		in.Report.Nonce, in.Nonces = nonce, signer
		return in
	}
	other := testSigner{"another-key-0123456789"}
	for name, in := range map[string]model.Input{
		"unsigned":                with(plain, key),
		"signed with another key": with(plain+"."+other.SignNonce(model.NonceMessage("acme/widgets#7", "loop/7/1", "implement", plain)), key),
		"signed for another run":  with(plain+"."+key.SignNonce(model.NonceMessage("acme/widgets#7", "loop/7/2", "implement", plain)), key),
	} {
		out := Step(cfg, res.State, in, f, t0.Add(time.Minute))
		assert.False(t, out.Changed, name)
		assert.Contains(t, joinLog(out.Log), "its nonce is not signed with the state key", name)
	}
	out := Step(cfg, res.State, with(sent, key), f, t0.Add(time.Minute))
	assert.Equal(t, "analyze", out.State.Runs[0].Stage)
}

// The state lost (the branch deleted, the comment edited): the pipeline starts again,
// under a run id never used on the pull request, and the earlier dispatch's report —
// genuinely signed, re-run — counts for nothing.
func TestAgentReportReplayedAfterTheStateIsLost(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchWorkflow)
	f := prFacts()
	f.PR.CreatedAt = t0
	key := testSigner{"0123456789abcdef-key"}
	first := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened", Nonces: key}, f, t0)
	require.Len(t, first.Effects, 1)
	replay := report("loop/7/1", "implement", 1, lang.VerdictComplete, nil)
	replay.Report.Nonce, replay.Nonces = first.Effects[0].Inputs["nonce"], key
	first = dispatched(t, cfg, first, f, t0)
	old := first.State.Runs[0]
	require.Equal(t, "loop/7/1", old.ID)
	// The report counted then.
	require.Equal(t, "analyze", Step(cfg, first.State, replay, f, t0.Add(time.Minute)).State.Runs[0].Stage)

	// An hour later, nothing of that state is left; the opening is delivered again.
	again := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened", Nonces: key}, f, t0.Add(time.Hour))
	require.Len(t, again.State.Runs, 1)
	assert.Equal(t, "loop/7/61", again.State.Runs[0].ID, "a run id is never used twice on a pull request")
	again = dispatched(t, cfg, again, f, t0.Add(time.Hour))
	out := Step(cfg, again.State, replay, f, t0.Add(2*time.Hour))
	assert.False(t, out.Changed)
	assert.Contains(t, joinLog(out.Log), "no such run")

	// Even under the same run id (started again within the same minute), the nonce differs.
	same := Step(cfg, nil, model.Input{Key: "k9", Event: "pull_request.opened", Nonces: key}, f, t0)
	require.Equal(t, old.ID, same.State.Runs[0].ID)
	assert.NotEqual(t, old.Stages["implement"].Nonce, same.State.Runs[0].Stages["implement"].Nonce)
	same = dispatched(t, cfg, same, f, t0)
	out = Step(cfg, same.State, replay, f, t0.Add(time.Minute))
	assert.False(t, out.Changed)
	assert.Contains(t, joinLog(out.Log), "its nonce is not the one of the stage's live attempt")
}

// A comment dispatch says the nonce in its report line; a label or an assignee carries
// nothing, so the status says it.
func TestAgentNonceOfCommentLabelAndAssignDispatches(t *testing.T) {
	cfg := agentConfig(t, lang.DispatchComment)
	f := prFacts()
	res := dispatched(t, cfg, Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0), f, t0)
	res = Step(cfg, res.State, reportOn(res.State, "loop/7/1", "implement", 1, lang.VerdictComplete, nil), f, t0)
	require.Len(t, res.Effects, 1)
	nonce := res.State.Runs[0].Stages["analyze"].Nonce
	require.NotEmpty(t, nonce)
	assert.Contains(t, res.Effects[0].Body, "pipeline-action report --run loop/7/1 --stage analyze --attempt 1 --nonce "+nonce+" --verdict <verdict>")
	for _, kind := range []string{lang.DispatchLabel, lang.DispatchAssign} {
		cfg := agentConfig(t, kind)
		res := atAnalyze(t, cfg, f)
		sr := res.State.Runs[0].Stages["analyze"]
		require.NotEmpty(t, sr.Nonce, kind)
		assert.Contains(t, sr.Message, "--run loop/7/1 --stage analyze --attempt 1 --nonce "+sr.Nonce, kind)
	}
}
