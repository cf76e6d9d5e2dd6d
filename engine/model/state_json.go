package model

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
