package run

import (
	"github.com/org/pipeline-action/engine/model"
)

// nonces signs the nonces of the dispatches with the state key, and verifies those the
// reports echo; nil without a key.
func (r *Runner) nonces() model.NonceSigner {
	if r.stateKeys.Set() {
		return r.stateKeys
	}
	return nil
}
