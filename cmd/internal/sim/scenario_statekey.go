package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/state"
)

// The `state_key` step changes the state key the workflows are given from then on: a
// workflow that lost the secret (`key: ""`), a rotation (`key` the new one, `previous`
// the old ones), a rotation finished. Nothing is delivered: GitHub sends no event when a
// secret changes.

// stateKeyStep is `state_key: {key, previous}`.
type stateKeyStep struct {
	Key      string   `yaml:"key"`
	Previous []string `yaml:"previous"`
}

// invocationKeys are the state key inputs every invocation is given now, once a
// state_key step set them (before that, the scenario's state_key).
type invocationKeys struct {
	set      bool
	key      string
	previous []string
	// all are every key the scenario gave the action, with which expectations read the
	// state: they check what an action with its key wrote, whichever key that was.
	all []string
}

// current are the keys given now.
func (s *simulation) current() invocationKeys {
	if s.keys.set || s.sc.StateKey == "" {
		return s.keys
	}
	return invocationKeys{set: true, key: s.sc.StateKey, all: []string{s.sc.StateKey}}
}

// applyStateKey is the `state_key` step; nothing is delivered. A key the action would
// refuse (too short, white space, previous keys without a current one) is a mistake in
// the scenario.
func (s *simulation) applyStateKey(v *stateKeyStep) ([]ghfake.Event, string, bool, error) {
	if _, err := state.NewKeys(v.Key, v.Previous...); err != nil {
		return nil, "", false, fmt.Errorf("state_key: %v", err)
	}
	all := s.current().all
	for _, k := range append([]string{v.Key}, v.Previous...) {
		if k != "" && !slices.Contains(all, k) {
			all = append(all, k)
		}
	}
	s.keys = invocationKeys{set: true, key: v.Key, previous: append([]string(nil), v.Previous...), all: all}
	switch {
	case v.Key == "":
		return nil, "state_key: the workflows are given no state key from now on (GitHub sends no event)", false, nil
	case len(v.Previous) > 0:
		return nil, fmt.Sprintf("state_key: the workflows are given a new state key, and %d previous (a rotation; GitHub sends no event)", len(v.Previous)), false, nil
	}
	return nil, "state_key: the workflows are given a state key with no previous one from now on (GitHub sends no event)", false, nil
}

// keyEnv sets the state key inputs of an invocation: those given now, unless with (a
// report job's inputs) gives its own state_key, which then stands alone.
func (s *simulation) keyEnv(env, with map[string]string) {
	if _, own := with["state_key"]; own {
		return
	}
	k := s.current()
	if k.key != "" {
		env["INPUT_STATE_KEY"] = k.key
	}
	if len(k.previous) > 0 {
		env["INPUT_STATE_KEY_PREVIOUS"] = strings.Join(k.previous, "\n")
	}
}

// stateKeys are the keys with which the simulation tells the state the action trusts: the
// key given now (or else the last one given), and every other the scenario gave as
// previous ones (nil: none).
func (s *simulation) stateKeys() *state.Keys {
	k := s.current()
	if len(k.all) == 0 {
		return nil
	}
	current := k.key
	if current == "" {
		current = k.all[len(k.all)-1]
	}
	var previous []string
	for _, x := range k.all {
		if x != current {
			previous = append(previous, x)
		}
	}
	keys, err := state.NewKeys(current, previous...)
	if err != nil {
		return nil
	}
	return keys
}

// defaultStateKey is the state_key of the scenarios that give none: "" but in a test
// that plays the examples again with a key, to show that a key changes no outcome.
var defaultStateKey string
