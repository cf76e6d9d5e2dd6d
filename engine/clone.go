package engine

import (
	"encoding/json"
	"fmt"
)

// mustJSON is st as it is persisted.
func mustJSON(st *State) []byte {
	b, err := json.Marshal(st)
	if err != nil {
		panic(fmt.Sprintf("engine: state does not marshal: %v", err))
	}
	return b
}

// clone deep-copies a state through its JSON form, which is what is persisted anyway.
func clone(st *State) *State {
	if st == nil {
		return &State{Version: 1}
	}
	var out State
	if err := json.Unmarshal(mustJSON(st), &out); err != nil {
		panic(fmt.Sprintf("engine: state does not unmarshal: %v", err))
	}
	return &out
}
