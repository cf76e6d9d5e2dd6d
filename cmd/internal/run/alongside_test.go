package run

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/state"
)

const gateThenMerge = `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: ready
        type: gate
        conditions:
          - {check: label_present, label: go}
          - {check: label_present, label: also}
      - {id: m, type: action, action: merge_pr}
`

// afterTransport runs after, once, when the answer to the first request whose path ends
// with path has come back: what another invocation does in that moment.
type afterTransport struct {
	base  http.RoundTripper
	path  string
	after func()
	once  sync.Once
}

func (t *afterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && strings.HasSuffix(req.URL.Path, t.path) {
		t.once.Do(t.after)
	}
	return resp, err
}

// The merge event edits the status comment alongside the outcome's commit. Here another
// invocation on the same pull request commits between the merge and that commit, which
// loses: the invocation reads again and commits once more (one read, one commit), the
// merge is not performed twice, and the state comment ends showing the state the branch
// holds, with no newer seq than it.
func TestRunMergeOutcomeLosesTheRace(t *testing.T) {
	h := newHarness(t, gateThenMerge)
	h.OpenPR7()
	code, out, _, _ := h.Deliver(h.Fake.Label("acme/widgets", 7, "also", true)) // binds the state comment
	require.Equal(t, 0, code, out)
	rival := func() {
		ev, _ := h.Fake.Comment("acme/widgets", 7, "alice", "any news?")
		code, log, _, _ := h.Deliver(ev)
		require.Equal(t, 0, code, log)
	}
	rt := &afterTransport{base: http.DefaultTransport, path: "/pulls/7/merge", after: rival}
	h.Fake.ResetStats()
	h.RunID++
	env := runtest.Job(t, h.Fake, h.Dir, h.RunID, h.Fake.Label("acme/widgets", 7, "go", true), h.Fake.BotToken())
	env["GITHUB_OUTPUT"], env["GITHUB_STEP_SUMMARY"] = filepath.Join(h.Dir, "output"), filepath.Join(h.Dir, "summary")
	var log bytes.Buffer
	r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: time.Now, Transport: rt}
	require.Equal(t, 0, r.Run(context.Background()), log.String())

	assert.True(t, h.Fake.PR("acme/widgets", 7).Merged)
	assert.Equal(t, 1, h.Fake.Stats()["pulls/merge"], "merged once")
	assert.Contains(t, log.String(), "moved since it was read", "the outcome's commit lost the race")
	// The read, the intent, the merge, the outcome's commit (lost) with the comment's edit
	// beside it; the read again, and the edit that shows the winner's truth (which had
	// recorded the merge already: nothing more to commit).
	assert.Contains(t, log.String(), "API calls: graphql 4, rest 3")

	truth := h.stateOf(7)
	comments := h.stateComments(7)
	require.Len(t, comments, 1)
	shown, found, err := state.Decode(comments[0].Body)
	require.NoError(t, err)
	require.True(t, found)
	require.Len(t, truth.Runs, 1)
	require.Len(t, shown.Runs, 1)
	assert.Equal(t, model.RunCompleted, truth.Runs[0].Status)
	assert.Equal(t, truth.Runs[0].Status, shown.Runs[0].Status)
	assert.Equal(t, truth.Runs[0].Stage, shown.Runs[0].Stage)
	assert.Equal(t, truth.Runs[0].History, shown.Runs[0].History, "the comment shows the branch's truth")
	assert.LessOrEqual(t, shown.Seq, truth.Seq)
}
