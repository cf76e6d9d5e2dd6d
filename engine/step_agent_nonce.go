package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
)

// A report is for one dispatch, once. Each attempt of an agent stage has a nonce, made
// when its dispatch is (from the subject, the run, the stage, the attempt, the moment and
// the event's delivery), kept in the state and sent with the dispatch — the `nonce`
// input of a workflow, a member of a repository_dispatch's client_payload, the report
// line of a comment dispatch. The agent's report echoes it, and a report whose nonce is
// not the live attempt's is refused: a report of an earlier dispatch re-run, or replayed
// after the state was lost and the run started again, counts for nothing.
//
// With the state key the nonce sent is signed ("<nonce>.<hmac>", the HMAC over the
// subject, the run, the stage and the nonce): the state that holds the nonce is public
// (the comment), the signature is not, so a report made without the key cannot forge it.

// NonceSigner signs and verifies with the state key (state.Keys).
type NonceSigner interface {
	SignNonce(msg string) string
	VerifyNonce(msg, tag string) bool
}

// attemptNonce returns the nonce of sr's current attempt of stage stageID of run, made
// first if that attempt has none yet.
func (e *eval) attemptNonce(run *Run, stageID string, sr *StageRun) string {
	prefix := strconv.Itoa(sr.Attempt) + "-"
	if strings.HasPrefix(sr.Nonce, prefix) {
		return sr.Nonce
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{"pipeline-action:nonce", e.subject(), run.ID, stageID,
		strconv.Itoa(sr.Attempt), e.now.UTC().Format(time.RFC3339Nano), e.delivery, e.facts.PR.HeadSHA}, "\x00")))
	sr.Nonce = prefix + hex.EncodeToString(sum[:8])
	return sr.Nonce
}

// dispatchNonce is the nonce the dispatch of sr's attempt carries: signed with the state
// key when there is one.
func (e *eval) dispatchNonce(run *Run, stageID string, sr *StageRun) string {
	return SignedNonce(e.nonces, e.subject(), run.ID, stageID, e.attemptNonce(run, stageID, sr))
}

// SignedNonce is nonce, of an attempt of stage stageID of run runID on subject, as its
// dispatch sends it: with signer (the state key), "<nonce>.<signature>"; else as it is.
func SignedNonce(signer NonceSigner, subject, runID, stageID, nonce string) string {
	if signer == nil || nonce == "" {
		return nonce
	}
	return nonce + "." + signer.SignNonce(nonceMessage(subject, runID, stageID, nonce))
}

// nonceMessage is what a nonce's signature covers.
func nonceMessage(subject, run, stage, nonce string) string {
	return strings.Join([]string{"pipeline-action:nonce v1", subject, run, stage, nonce}, "\x00")
}

// wrongNonce says why got, the nonce a report carries, is not the one of sr's live
// attempt of stage of run; "" when it is.
func (e *eval) wrongNonce(run *Run, stage *lang.Stage, sr *StageRun, got string) string {
	stageID := stage.ID
	if !strings.HasPrefix(sr.Nonce, strconv.Itoa(sr.Attempt)+"-") {
		if key := dispatchKey(run, stage); !contains(run.Applied, key) && !hasIntent(run, key) {
			return "this attempt's agent has not been dispatched yet: the report answers another dispatch"
		}
		return "this attempt was dispatched without a nonce (by an earlier version of the action); `/pipeline retry` dispatches it anew"
	}
	if got == "" {
		return "it carries no nonce (the agent's workflow passes its dispatch's `nonce` input to the report)"
	}
	plain, tag, signed := strings.Cut(got, ".")
	if plain != sr.Nonce {
		return "its nonce is not the one of the stage's live attempt: it answers another dispatch (an earlier one, re-run or replayed)"
	}
	if e.nonces != nil && (!signed || !e.nonces.VerifyNonce(nonceMessage(e.subject(), run.ID, stageID, plain), tag)) {
		return "its nonce is not signed with the state key"
	}
	return ""
}

// hasIntent reports whether run holds the intent of effect key.
func hasIntent(run *Run, key string) bool {
	for _, it := range run.Intents {
		if it.Key == key {
			return true
		}
	}
	return false
}
