package cli

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine"
)

const workflowAgentConfig = `version: 1
agents:
  coder: {dispatch: workflow, workflow: agent-coder.yml}
pipelines:
  implement:
    trigger: {event: pull_request.opened}
    stages:
      - {id: implement, type: agent, agent: coder, on_complete: complete, on_error: escalate}
`

// lossyTransport plays a GitHub whose answer to the first request matching lose is lost:
// the request reaches GitHub (performed) and then the answer is replaced by a 502 or a
// cut connection; with refuse, the request never leaves (the connection is refused).
type lossyTransport struct {
	base   http.RoundTripper
	lose   string // a path suffix
	mode   string // "502", "cut" or "refuse"
	mu     sync.Mutex
	done   bool
	served int
}

func (t *lossyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	hit := !t.done && strings.HasSuffix(req.URL.Path, t.lose)
	if hit {
		t.done = true
	}
	t.mu.Unlock()
	if !hit {
		return t.base.RoundTrip(req)
	}
	if t.mode == "refuse" {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if t.mode == "cut" {
		return nil, io.ErrUnexpectedEOF
	}
	return &http.Response{StatusCode: http.StatusBadGateway, Status: "502 Bad Gateway", Request: req,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(`{"message":"Bad Gateway"}`))}, nil
}

// lossyHarness is a harness whose invocations go through a lossyTransport, on a clock the
// test moves (GitHub's and the runner's alike).
type lossyHarness struct {
	*harness
	rt  *lossyTransport
	now time.Time
}

func newLossyHarness(t *testing.T, mode string) *lossyHarness {
	h := &lossyHarness{harness: newHarness(t, workflowAgentConfig), now: time.Now().UTC()}
	h.fake.SetClock(func() time.Time { return h.now })
	h.fake.SetFile("acme/widgets", "main", ".github/workflows/agent-coder.yml", coderWorkflow)
	h.rt = &lossyTransport{base: http.DefaultTransport, lose: "/actions/workflows/agent-coder.yml/dispatches", mode: mode}
	return h
}

// deliver runs ev through the run path with the lossy transport.
func (h *lossyHarness) deliver(ev ghfake.Event) (int, string) {
	h.t.Helper()
	h.runID++
	path := filepath.Join(h.dir, "event-"+strconv.Itoa(h.runID)+".json")
	require.NoError(h.t, os.WriteFile(path, ev.Payload, 0o600))
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": ev.Name, "GITHUB_EVENT_PATH": path,
		"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_RUN_ID": strconv.Itoa(h.runID),
		"GITHUB_API_URL": h.fake.URL + "/api/v3", "GITHUB_GRAPHQL_URL": h.fake.URL + "/api/graphql",
		"GITHUB_OUTPUT": filepath.Join(h.dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(h.dir, "summary"),
		"INPUT_TOKEN": h.fake.BotToken(),
	}
	var log bytes.Buffer
	r := &runner{getenv: func(k string) string { return env[k] }, out: &log, now: func() time.Time { return h.now }, transport: h.rt}
	return r.run(context.Background()), log.String()
}

func (h *lossyHarness) stage() *engine.StageRun {
	h.t.Helper()
	runs := h.stateRuns(7)
	require.Len(h.t, runs, 1)
	return runs[0].Stages["implement"]
}

// A workflow_dispatch GitHub performed but whose answer was lost (a 502, a cut connection)
// is not sent again: the next events find its workflow run by its run-name, and the stage
// waits for the agent's report.
func TestUnansweredWorkflowDispatchIsNotResent(t *testing.T) {
	for _, mode := range []string{"502", "cut"} {
		t.Run(mode, func(t *testing.T) {
			h := newLossyHarness(t, mode)
			code, log := h.deliver(h.fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
			require.Equal(t, 0, code, log)
			require.Len(t, h.fake.Dispatches(), 1, log)
			for i := 0; i < 3; i++ {
				h.now = h.now.Add(4 * time.Minute) // past the invocation's deadline from the second on
				ev, _ := h.fake.Comment("acme/widgets", 7, "alice", "any news?")
				code, log = h.deliver(ev)
				require.Equal(t, 0, code, log)
			}
			assert.Len(t, h.fake.Dispatches(), 1, "dispatched once: %s", log)
			sr := h.stage()
			assert.Equal(t, engine.StageWaiting, sr.Status, log)
			assert.Equal(t, h.fake.Dispatches()[0].RunID, sr.AgentRun, "the workflow run found is the agent's")
		})
	}
}

// A workflow_dispatch refused before it left (the connection refused) was certainly not
// performed: the next event sends it.
func TestRefusedWorkflowDispatchIsResent(t *testing.T) {
	h := newLossyHarness(t, "refuse")
	code, log := h.deliver(h.fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	require.Empty(t, h.fake.Dispatches(), log)
	ev, _ := h.fake.Comment("acme/widgets", 7, "alice", "any news?")
	code, log = h.deliver(ev)
	require.Equal(t, 0, code, log)
	assert.Len(t, h.fake.Dispatches(), 1, log)
	assert.Equal(t, engine.StageWaiting, h.stage().Status, log)
}
