package core

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/lang"
)

// AttemptNonce returns the nonce of sr's current attempt of stage stageID of run, made
// first if that attempt has none yet.
func (e *Eval) AttemptNonce(run *model.Run, stageID string, sr *model.StageRun) string {
	prefix := strconv.Itoa(sr.Attempt) + "-"
	if strings.HasPrefix(sr.Nonce, prefix) {
		return sr.Nonce
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{"pipeline-action:nonce", e.Subject(), run.ID, stageID,
		strconv.Itoa(sr.Attempt), e.Now.UTC().Format(time.RFC3339Nano), e.Dispatch.Delivery, e.Facts.PR.HeadSHA}, "\x00")))
	sr.Nonce = prefix + hex.EncodeToString(sum[:8])
	return sr.Nonce
}

// WrongNonce says why got, the nonce a report carries, is not the one of sr's live
// attempt of stage of run; "" when it is.
func (e *Eval) WrongNonce(run *model.Run, stage *lang.Stage, sr *model.StageRun, got string) string {
	stageID := stage.ID
	if !strings.HasPrefix(sr.Nonce, strconv.Itoa(sr.Attempt)+"-") {
		if key := DispatchKey(run, stage); !slices.Contains(run.Applied, key) && !hasIntent(run, key) {
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
	if e.Dispatch.Nonces != nil && (!signed || !e.Dispatch.Nonces.VerifyNonce(model.NonceMessage(e.Subject(), run.ID, stageID, plain), tag)) {
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
