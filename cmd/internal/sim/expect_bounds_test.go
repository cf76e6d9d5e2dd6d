package sim

import (
	"net/http"
	"testing"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dispatches at_most bounds an agent's dispatches; prs.N.comments_at_most bounds the
// action's state comments on the PR. Each says what it found when it does not hold.
func TestExpectBounds(t *testing.T) {
	cfg := runtest.Read(t, "testdata/scenarios/agent-dispatch-kinds/pipelines.yaml")
	sim, out := newSim(t, `
repo: acme/widgets
token: app
users: {dev: write}
steps:
  - open_pr: {number: 7, author: dev}
  - redeliver: 1
  - comment: {pr: 7, user: "github-actions[bot]", body: "<!-- pipeline-action:state v3 -->", deliver: false}
expect:
  prs: {7: {comments_at_most: 1}}
  dispatches: [{agent: triage, at_most: 1}, {agent: triage, at_most: 0}, {agent: triage, count: 1, at_most: 5}, {agent: nobody, at_most: 1}]
`, cfg)
	failed, err := sim.play(t.Context())
	require.NoError(t, err, out.String())
	assert.Equal(t, 3, failed, out.String())
	assert.Contains(t, out.String(), "   ✓ dispatches of agent triage: at most 1\n")
	assert.Contains(t, out.String(), "   ✗ dispatches of agent triage: want at most 0, found 1\n")
	assert.Contains(t, out.String(), "   ✓ dispatches of agent triage: 1\n   ✓ dispatches of agent triage: at most 5\n")
	assert.Contains(t, out.String(), "   ✗ dispatches of agent nobody: want at most 1, found no such agent in the config\n")
	assert.Contains(t, out.String(), "   ✗ #7 state comments by the action: want at most 1, found 2\n")
}

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

// max_file_bytes bounds the files the action keeps on the state branch, names the largest,
// and does not count what the branch carries unchanged from the default branch.
func TestMaxFileBytes(t *testing.T) {
	type line struct {
		ok          bool
		want, found string
	}
	var got []line
	report := func(ok bool, _, want, found string) { got = append(got, line{ok, want, found}) }
	files := map[string]string{"pr-7.json": "0123456789", "index.json": "{}", ".github/pipelines.yaml": "a long config file"}
	inherited := map[string]string{".github/pipelines.yaml": "a long config file"}
	most := 10
	checkFileBytes(report, "state", files, inherited, &most)
	most = 9
	checkFileBytes(report, "state", files, inherited, &most)
	checkFileBytes(report, "state", files, nil, &most)
	checkFileBytes(report, "state", files, nil, nil)
	assert.Equal(t, []line{
		{true, "at most 10 bytes", "pr-7.json: 10 bytes"},
		{false, "at most 9 bytes", "pr-7.json: 10 bytes"},
		{false, "at most 9 bytes", ".github/pipelines.yaml: 18 bytes"},
	}, got)
}
