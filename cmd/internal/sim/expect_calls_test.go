package sim

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

// api_calls and content_writes bound the requests of every step so far: one over the
// bound fails, with what it found.
func TestCallBounds(t *testing.T) {
	src := "repo: acme/widgets\nusers: {dev: write}\nsteps:\n  - open_pr: {number: 7, author: dev}\n" +
		"  - expect: {api_calls: {at_most: 1}, content_writes: {at_most: 1}}\n" +
		"expect: {api_calls: {at_most: 100}, content_writes: {at_most: 100}}\n"
	code, out, errOut := simulate(t, writeScenario(t, src), "-q", "--stats")
	assert.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "✗ API calls so far: want at most 1, found ")
	assert.Contains(t, out, "✗ content-creating API calls so far: want at most 1, found ")
	assert.Contains(t, out, "✓ API calls so far: at most 100")
	assert.Contains(t, out, "✓ content-creating API calls so far: at most 100")
	assert.Contains(t, out, "content-creating (REST writes and GraphQL mutations)")
}

func TestContentWrites(t *testing.T) {
	calls := []ghfake.Call{
		{Method: http.MethodPost, Kind: "graphql"},                 // a query
		{Method: http.MethodPost, Kind: "graphql", Mutation: true}, // a mutation
		{Method: http.MethodGet, Kind: "repos/get"},
		{Method: http.MethodPatch, Kind: "issues/update-comment"},
		{Method: http.MethodPut, Kind: "pulls/merge"},
	}
	assert.Equal(t, 3, contentWrites(calls))
}
