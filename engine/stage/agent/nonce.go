package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage"
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

// dispatchNonce is the nonce the dispatch of sr's attempt carries: signed with the state
// key when there is one.
func dispatchNonce(c stage.Context, run *model.Run, stageID string, sr *model.StageRun) string {
	return model.SignedNonce(c.Signer(), c.Subject(), run.ID, stageID, attemptNonce(c, run, stageID, sr))
}

// attemptNonce returns the nonce of sr's current attempt of stage stageID of run, made
// first if that attempt has none yet.
func attemptNonce(c stage.Context, run *model.Run, stageID string, sr *model.StageRun) string {
	prefix := strconv.Itoa(sr.Attempt) + "-"
	if strings.HasPrefix(sr.Nonce, prefix) {
		return sr.Nonce
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{"pipeline-action:nonce", c.Subject(), run.ID, stageID,
		strconv.Itoa(sr.Attempt), c.Now().UTC().Format(time.RFC3339Nano), c.Delivery(), c.Facts().PR.HeadSHA}, "\x00")))
	sr.Nonce = prefix + hex.EncodeToString(sum[:8])
	return sr.Nonce
}

// wrongNonce says why got, the nonce a report carries, is not the one of sr's live
// attempt of s of run; "" when it is.
func wrongNonce(c stage.Context, run *model.Run, s *lang.Stage, sr *model.StageRun, got string) string {
	if !strings.HasPrefix(sr.Nonce, strconv.Itoa(sr.Attempt)+"-") {
		if key := DispatchKey(run, s); !slices.Contains(run.Applied, key) && !hasIntent(run, key) {
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
	if signer := c.Signer(); signer != nil && (!signed || !signer.VerifyNonce(model.NonceMessage(c.Subject(), run.ID, s.ID, plain), tag)) {
		return "its nonce is not signed with the state key"
	}
	return ""
}

// hasIntent reports whether run holds the intent of effect key.
func hasIntent(run *model.Run, key string) bool {
	for _, it := range run.Intents {
		if it.Key == key {
			return true
		}
	}
	return false
}
