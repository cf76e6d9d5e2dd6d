package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/org/pipeline-action/cmd/internal/ghfake/internal/shapes"
)

// GitHub's limits on what the API gives and takes, which the fake keeps as GitHub does.
const (
	// MaxLabelName is the longest label name GitHub accepts, in characters.
	MaxLabelName = 50
	// MaxDispatchInputs is the most inputs a workflow_dispatch takes, and
	// MaxDispatchPayload the most characters of their values and names together.
	MaxDispatchInputs  = 25
	MaxDispatchPayload = 65_535
)

// labelTooLong returns GitHub's 422 body for the first of names longer than MaxLabelName
// characters, which GitHub refuses to create as a label; ok is false when there is none.
func labelTooLong(names []string) (body shapes.Obj, ok bool) {
	for _, n := range names {
		if utf8.RuneCountInString(n) > MaxLabelName {
			return shapes.Obj{"message": "Validation Failed", "documentation_url": DocsURL, "errors": []any{
				shapes.Obj{"value": n, "resource": "Label", "field": "name", "code": "invalid"},
			}}, true
		}
	}
	return nil, false
}

// checkDispatchInputs refuses a workflow_dispatch's inputs over GitHub's limits: more than
// MaxDispatchInputs of them, or a payload (their JSON) over MaxDispatchPayload characters.
func checkDispatchInputs(inputs map[string]any) (int, any, bool) {
	if len(inputs) > MaxDispatchInputs {
		return http.StatusUnprocessableEntity, ErrorBody(fmt.Sprintf("Invalid request.\n\nToo many inputs (maximum is %d).", MaxDispatchInputs)), false
	}
	b, err := json.Marshal(inputs)
	if err != nil {
		return http.StatusUnprocessableEntity, ErrorBody("Invalid request."), false
	}
	if n := utf8.RuneCount(b); n > MaxDispatchPayload {
		return http.StatusUnprocessableEntity, ErrorBody(fmt.Sprintf("Invalid request.\n\ninputs are too large (%d characters; the maximum is %d).", n, MaxDispatchPayload)), false
	}
	return 0, nil, true
}
