package core

import (
	"encoding/json"
	"fmt"
)

// MustJSON is st as it is persisted.
func MustJSON(st *State) []byte {
	b, err := json.Marshal(st)
	if err != nil {
		panic(fmt.Sprintf("engine: state does not marshal: %v", err))
	}
	return b
}

// Clone deep-copies a state through its JSON form, which is what is persisted anyway.
func Clone(st *State) *State {
	if st == nil {
		return &State{Version: 1}
	}
	var out State
	if err := json.Unmarshal(MustJSON(st), &out); err != nil {
		panic(fmt.Sprintf("engine: state does not unmarshal: %v", err))
	}
	return &out
}
