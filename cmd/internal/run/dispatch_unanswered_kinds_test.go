package run

import (
	"fmt"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghfake"
)

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
