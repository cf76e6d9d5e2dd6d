package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/org/pipeline-action/engine"
)

// nonces signs the nonces of the dispatches with the state key, and verifies those the
// reports echo; nil without a key.
func (r *runner) nonces() engine.NonceSigner {
	if r.stateKeys.Set() {
		return r.stateKeys
	}
	return nil
}

// dispatchedNonce is the nonce the dispatch of attempt of stage of run runID gave its
// agent, as the agent read it: the `nonce` input of that workflow or repository dispatch
// in the fake's record; for another kind of dispatch (a comment, a label), the one the
// state holds for that attempt, signed with the scenario's state key when it has one.
// "" when there is none (the report then carries none, and is refused).
func (s *simulation) dispatchedNonce(runID, stage string, attempt int) string {
	ds := s.fake.Dispatches()
	for i := len(ds) - 1; i >= 0; i-- {
		in := ds[i].Inputs
		if in["run"] == runID && in["stage"] == stage && in["attempt"] == strconv.Itoa(attempt) {
			if n, ok := in["nonce"]; ok {
				return fmt.Sprint(n)
			}
		}
	}
	for _, run := range s.runs() {
		sr := run.Stages[stage]
		if run.ID != runID || sr == nil || !strings.HasPrefix(sr.Nonce, strconv.Itoa(attempt)+"-") {
			continue
		}
		var signer engine.NonceSigner
		if k := s.stateKeys(); k.Set() {
			signer = k
		}
		return engine.SignedNonce(signer, run.Subject, run.ID, stage, sr.Nonce)
	}
	return ""
}
