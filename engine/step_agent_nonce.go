package engine

import (
	"github.com/org/pipeline-action/engine/model"
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
func (e *eval) dispatchNonce(run *model.Run, stageID string, sr *model.StageRun) string {
	return model.SignedNonce(e.Dispatch.Nonces, e.Subject(), run.ID, stageID, e.AttemptNonce(run, stageID, sr))
}
