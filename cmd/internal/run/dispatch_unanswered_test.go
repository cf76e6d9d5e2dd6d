package run

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/cmd/internal/runtest"
	"github.com/org/pipeline-action/engine/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// lossyTransport plays a GitHub whose answer to the first POST whose path ends with lose
// is lost: the request reaches GitHub (performed) and then the answer is replaced by a
// 502 ("502") or a cut connection ("cut"); or the request never reaches GitHub and a 502
// comes back ("drop"); or the connection is refused ("refuse").
type lossyTransport struct {
	base http.RoundTripper
	lose string
	mode string
	mu   sync.Mutex
	done bool
}

func (t *lossyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	hit := !t.done && req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, t.lose)
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
	if t.mode != "drop" {
		resp, err := t.base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
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
	h := newLossyHarnessWith(t, workflowAgentConfig, "/actions/workflows/agent-coder.yml/dispatches", mode)
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/agent-coder.yml", coderWorkflow)
	return h
}

func newLossyHarnessWith(t *testing.T, config, lose, mode string) *lossyHarness {
	h := &lossyHarness{harness: newHarness(t, config), now: time.Now().UTC()}
	h.Fake.SetClock(func() time.Time { return h.now })
	h.rt = &lossyTransport{base: http.DefaultTransport, lose: lose, mode: mode}
	return h
}

// next delivers a comment on #7 after d: an event that evaluates its runs again.
func (h *lossyHarness) next(d time.Duration) string {
	h.T.Helper()
	h.now = h.now.Add(d)
	ev, _ := h.Fake.Comment("acme/widgets", 7, "alice", "any news?")
	code, log := h.deliver(ev)
	require.Equal(h.T, 0, code, log)
	return log
}

// deliver runs ev through the run path with the lossy transport.
func (h *lossyHarness) deliver(ev ghfake.Event) (int, string) {
	h.T.Helper()
	h.RunID++
	env := runtest.Job(h.T, h.Fake, h.Dir, h.RunID, ev, h.Fake.BotToken())
	env["GITHUB_OUTPUT"], env["GITHUB_STEP_SUMMARY"] = filepath.Join(h.Dir, "output"), filepath.Join(h.Dir, "summary")
	var log bytes.Buffer
	r := &Runner{Getenv: func(k string) string { return env[k] }, Out: &log, Now: func() time.Time { return h.now }, Transport: h.rt}
	return r.Run(context.Background()), log.String()
}

func (h *lossyHarness) stage() *model.StageRun {
	h.T.Helper()
	runs := h.stateRuns(7)
	require.Len(h.T, runs, 1)
	return runs[0].Stages["implement"]
}

// A workflow_dispatch GitHub performed but whose answer was lost (a 502, a cut connection)
// is not sent again: the next events find its workflow run by its run-name, and the stage
// waits for the agent's report.
func TestUnansweredWorkflowDispatchIsNotResent(t *testing.T) {
	for _, mode := range []string{"502", "cut"} {
		t.Run(mode, func(t *testing.T) {
			h := newLossyHarness(t, mode)
			code, log := h.deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
			require.Equal(t, 0, code, log)
			require.Len(t, h.Fake.Dispatches(), 1, log)
			for i := 0; i < 3; i++ {
				log = h.next(4 * time.Minute) // past the invocation's deadline from the second on
			}
			assert.Len(t, h.Fake.Dispatches(), 1, "dispatched once: %s", log)
			sr := h.stage()
			assert.Equal(t, model.StageWaiting, sr.Status, log)
			assert.Equal(t, h.Fake.Dispatches()[0].RunID, sr.AgentRun, "the workflow run found is the agent's")
		})
	}
}

// A workflow_dispatch refused before it left (the connection refused) was certainly not
// performed: the next event sends it.
func TestRefusedWorkflowDispatchIsResent(t *testing.T) {
	h := newLossyHarness(t, "refuse")
	code, log := h.deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	require.Empty(t, h.Fake.Dispatches(), log)
	log = h.next(time.Minute)
	assert.Len(t, h.Fake.Dispatches(), 1, log)
	assert.Equal(t, model.StageWaiting, h.stage().Status, log)
}

// A workflow_dispatch whose answer was lost before it reached GitHub is not sent again
// while it may still be performed; once its invocation has surely ended and no run of
// the workflow names it, it is sent again, once.
func TestUnansweredWorkflowDispatchNotPerformedIsResentOnce(t *testing.T) {
	h := newLossyHarness(t, "drop")
	code, log := h.deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	log = h.next(time.Minute)
	assert.Empty(t, h.Fake.Dispatches(), "not sent again while it may be in flight: %s", log)
	assert.Equal(t, model.StageActing, h.stage().Status)
	log = h.next(6 * time.Minute) // the invocation's deadline (5m) and a minute have passed
	assert.Len(t, h.Fake.Dispatches(), 1, log)
	assert.Contains(t, log, "was not performed (no run of workflow agent-coder.yml")
	log = h.next(time.Minute)
	assert.Len(t, h.Fake.Dispatches(), 1, log)
	assert.Equal(t, model.StageWaiting, h.stage().Status, log)
}

// A run of the agent's workflow whose title names no attempt (a workflow without the
// run-name) may be the lost dispatch's: it is taken as performed, never sent twice, and the
// status says why.
func TestUnansweredDispatchOfAWorkflowWithoutRunName(t *testing.T) {
	h := newLossyHarness(t, "502")
	h.Fake.SetFile("acme/widgets", "main", ".github/workflows/agent-coder.yml", strings.Replace(coderWorkflow, "run-name:", "# run-name:", 1))
	code, log := h.deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	for i := 0; i < 3; i++ {
		log = h.next(4 * time.Minute)
	}
	assert.Len(t, h.Fake.Dispatches(), 1, log)
	sr := h.stage()
	assert.Equal(t, model.StageWaiting, sr.Status, log)
	assert.Contains(t, sr.Message, "names no run, stage and attempt in its title")
	assert.Contains(t, sr.Message, "it is not sent twice")
}

// A look-up that fails decides nothing: the dispatch is neither taken as done nor sent
// again, and the next event looks again.
func TestFailedLookUpOfAnUnansweredDispatch(t *testing.T) {
	h := newLossyHarness(t, "drop")
	code, log := h.deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	for i := 0; i < 2; i++ {
		h.Fake.Inject("actions/list-workflow-runs", ghfake.Fault{Status: 404, Message: "Not Found"})
		log = h.next(7 * time.Minute)
		assert.Empty(t, h.Fake.Dispatches(), log)
		assert.Contains(t, log, "listing the runs of workflow agent-coder.yml")
		assert.Contains(t, h.stage().Message, "is not known yet", log)
	}
	log = h.next(time.Minute)
	assert.Len(t, h.Fake.Dispatches(), 1, "looked up, certainly absent, sent: %s", log)
}

// agentConfig is a pipeline of one agent stage whose agent is agent.
func agentConfig(agent string) string {
	return fmt.Sprintf(`version: 1
agents:
  coder: %s
pipelines:
  implement:
    trigger: {event: pull_request.opened}
    stages:
      - {id: implement, type: agent, agent: coder, on_complete: complete, on_error: escalate}
`, agent)
}

// countCalls counts the calls of operation kind the fake served.
func countCalls(calls []ghfake.Call, kind string) int {
	n := 0
	for _, c := range calls {
		if c.Kind == kind {
			n++
		}
	}
	return n
}

// Every dispatch kind whose answer was lost after GitHub performed it is looked up, not sent
// again: the comment's marker, the label, the assignee; a repository_dispatch leaves
// nothing to look up and is taken as performed once its invocation has surely ended.
func TestUnansweredDispatchOfEveryKind(t *testing.T) {
	for _, tc := range []struct {
		name, agent, lose, op string
		message               string // what the stage says at the end; "" for the usual wait
	}{
		{"comment", `{dispatch: comment, body: "@coder-bot please implement"}`, "/issues/7/comments", "issues/create-comment", ""},
		{"label", `{dispatch: label, label: needs-code}`, "/issues/7/labels", "issues/add-labels", ""},
		{"assign", `{dispatch: assign, assignee: alice}`, "/issues/7/assignees", "issues/add-assignees", ""},
		{"repository_dispatch", `{dispatch: repository_dispatch, event_type: implement}`, "/repos/acme/widgets/dispatches",
			"repos/create-dispatch-event", "a repository_dispatch leaves nothing on GitHub to look at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newLossyHarnessWith(t, agentConfig(tc.agent), tc.lose, "502")
			code, log := h.deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
			require.Equal(t, 0, code, log)
			sent := countCalls(h.Fake.Calls(), tc.op) // a comment dispatch: and the state comment
			require.NotZero(t, sent, log)
			for i := 0; i < 3; i++ {
				log = h.next(4 * time.Minute)
			}
			assert.Equal(t, sent, countCalls(h.Fake.Calls(), tc.op), "sent once: %s", log)
			sr := h.stage()
			assert.Equal(t, model.StageWaiting, sr.Status, log)
			if tc.message != "" {
				assert.Contains(t, sr.Message, tc.message)
				assert.Contains(t, sr.Message, "it is not sent twice")
			} else {
				assert.Contains(t, sr.Message, "waiting for its report", log)
			}
		})
	}
}

// A label dispatch whose answer was lost before GitHub added the label is sent again on the
// next event: adding a label twice changes nothing, and the label is not there.
func TestUnansweredLabelDispatchNotPerformedIsResent(t *testing.T) {
	h := newLossyHarnessWith(t, agentConfig(`{dispatch: label, label: needs-code}`), "/issues/7/labels", "drop")
	code, log := h.deliver(h.Fake.OpenPR("acme/widgets", ghfake.PROptions{Number: 7, Author: "dev"}))
	require.Equal(t, 0, code, log)
	assert.Equal(t, model.StageActing, h.stage().Status, log)
	log = h.next(time.Minute)
	assert.Equal(t, 1, h.Fake.Labeled("acme/widgets", 7, ghfake.BotLogin, "needs-code"), log)
	assert.Equal(t, model.StageWaiting, h.stage().Status, log)
}
