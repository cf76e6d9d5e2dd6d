package model

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// GitHub's limits on a workflow_dispatch: at most MaxDispatchInputs inputs, whose JSON
// takes at most MaxDispatchPayload characters. A dispatch over them is refused (422), so a
// stage whose context would not fit fails with the reason instead of being sent.
const (
	MaxDispatchInputs  = 25
	MaxDispatchPayload = 65_535
)

// CheckDispatchPayload says why inputs would not fit a workflow_dispatch; nil when they do.
func CheckDispatchPayload(inputs map[string]string) error {
	if len(inputs) > MaxDispatchInputs {
		return fmt.Errorf("%d inputs; a workflow_dispatch takes at most %d", len(inputs), MaxDispatchInputs)
	}
	b, err := json.Marshal(inputs)
	if err != nil {
		return err
	}
	if n := utf8.RuneCount(b); n > MaxDispatchPayload {
		return fmt.Errorf("its inputs take %d characters (the context %d); a workflow_dispatch takes at most %d: "+
			"pass less in the stage's context, or put large values in outputs files the agent reads",
			n, utf8.RuneCountInString(inputs["context"]), MaxDispatchPayload)
	}
	return nil
}
