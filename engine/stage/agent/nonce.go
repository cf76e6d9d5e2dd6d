package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

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
