package run

import (
	"fmt"
	"io"
	"strings"

	"github.com/org/pipeline-action/state"
)

// The state key: the `state_key` input (and, during a rotation, `state_key_previous`,
// which verifies only). With it, every state the action writes is signed, and only
// signed states are trusted (state.Keys); the agent workflows that report with
// `command: report` pass the same secret. An invocation without it that finds a signed
// state stops before writing anything (state.SignedStateError).

// stateKeyOK reads the state key inputs, masks them at once (before anything else can
// log them) and keeps the keys in r.stateKeys. false: they are invalid (reported; the
// value is never printed).
func (r *Runner) stateKeyOK() bool {
	current := strings.TrimSpace(r.act.GetInput("state_key"))
	previous := strings.Fields(r.act.GetInput("state_key_previous"))
	// A mask is one line: a key that spans lines is masked line by line (and refused).
	for _, part := range append(strings.Fields(current), previous...) {
		r.act.AddMask(part)
	}
	keys, err := state.NewKeys(current, previous...)
	if err != nil {
		r.act.Errorf("input state_key: %v", err)
		return false
	}
	r.stateKeys = keys
	if keys.Set() {
		r.act.Infof("pipeline-action: a state key is set: states are signed with it, and only states it verifies are trusted")
	}
	return true
}

// KeysFromEnv reads the state key inputs (INPUT_STATE_KEY, INPUT_STATE_KEY_PREVIOUS) of a
// command that reads states outside the run path (doctor, audit). As a workflow step it
// masks them on stdout before anything else is printed, as stateKeyOK does.
func KeysFromEnv(getenv func(string) string, stdout io.Writer) (*state.Keys, error) {
	current, previous := strings.TrimSpace(getenv("INPUT_STATE_KEY")), strings.Fields(getenv("INPUT_STATE_KEY_PREVIOUS"))
	if getenv("GITHUB_ACTIONS") == "true" {
		for _, part := range append(strings.Fields(current), previous...) {
			fmt.Fprintf(stdout, "::add-mask::%s\n", part)
		}
	}
	return state.NewKeys(current, previous...)
}
