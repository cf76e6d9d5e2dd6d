package ghfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// GitHub's limits on what the API gives and takes, which the fake keeps as GitHub does.
const (
	// maxBlobText is the most bytes of a blob's text GraphQL gives: a longer blob's text is
	// cut there and its isTruncated is true.
	MaxBlobText = 512_000
	// maxLabelName is the longest label name GitHub accepts, in characters.
	maxLabelName = 50
	// maxDispatchInputs is the most inputs a workflow_dispatch takes, and
	// maxDispatchPayload the most characters of their values and names together.
	maxDispatchInputs  = 25
	maxDispatchPayload = 65_535
)

// blobText is the text GraphQL gives of bl: at most maxBlobText bytes, cut at a character's
// start, and whether it was cut.
func BlobText(bl *blob) (string, bool) {
	if len(bl.Text) <= MaxBlobText {
		return bl.Text, false
	}
	n := MaxBlobText
	for n > 0 && !utf8.RuneStart(bl.Text[n]) {
		n--
	}
	return bl.Text[:n], true
}

// labelTooLong returns GitHub's 422 body for the first of names longer than maxLabelName
// characters, which GitHub refuses to create as a label; ok is false when there is none.
func labelTooLong(names []string) (body obj, ok bool) {
	for _, n := range names {
		if utf8.RuneCountInString(n) > maxLabelName {
			return obj{"message": "Validation Failed", "documentation_url": docsURL, "errors": []any{
				obj{"value": n, "resource": "Label", "field": "name", "code": "invalid"},
			}}, true
		}
	}
	return nil, false
}

// checkDispatchInputs refuses a workflow_dispatch's inputs over GitHub's limits: more than
// maxDispatchInputs of them, or a payload (their JSON) over maxDispatchPayload characters.
func checkDispatchInputs(inputs map[string]any) (int, any, bool) {
	if len(inputs) > maxDispatchInputs {
		return http.StatusUnprocessableEntity, errorBody(fmt.Sprintf("Invalid request.\n\nToo many inputs (maximum is %d).", maxDispatchInputs)), false
	}
	b, err := json.Marshal(inputs)
	if err != nil {
		return http.StatusUnprocessableEntity, errorBody("Invalid request."), false
	}
	if n := utf8.RuneCount(b); n > maxDispatchPayload {
		return http.StatusUnprocessableEntity, errorBody(fmt.Sprintf("Invalid request.\n\ninputs are too large (%d characters; the maximum is %d).", n, maxDispatchPayload)), false
	}
	return 0, nil, true
}
