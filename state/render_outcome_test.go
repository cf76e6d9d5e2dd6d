package state

import (
	"strings"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

func outcomeConfig() *lang.Config {
	return &lang.Config{Version: 1, Pipelines: []*lang.Pipeline{{
		Name: "loop",
		Stages: []*lang.Stage{
			{ID: "implement", Type: lang.StageAgent, Agent: "coder", Timeout: 1},
			{ID: "analyze", Type: lang.StageAgent, Agent: "analyzer"},
			{ID: "low-risk", Type: lang.StageGate, OnFail: "maintainer"},
			{ID: "maintainer", Type: lang.StageHuman, WaitFor: lang.WaitApproval},
		},
	}}}
}

// The status says which way a stage went when its verdict looped back or its gate routed
// the run on purpose, and says a waiting agent's message once.
func TestRenderSaysWhatHappened(t *testing.T) {
	waiting := "agent coder dispatched (attempt 2); waiting for its report"
	run := &model.Run{ID: "loop/7/1", Pipeline: "loop", Subject: "acme/widgets#7", Status: model.RunWaiting, Stage: "implement", StartedAt: t0,
		Stages: map[string]*model.StageRun{
			"implement": {Status: model.StageWaiting, Attempt: 2, EnteredAt: at(2), Message: waiting,
				Results:   []model.GateResult{{Check: "report", Status: model.GatePending, Message: waiting, Who: "agent coder"}},
				Deadlines: []model.Deadline{{Kind: model.DeadlineTimeout, At: at(30)}}},
			"analyze":  {Status: model.StageSucceeded, Attempt: 1, EnteredAt: at(1), Verdict: lang.VerdictRevise},
			"low-risk": {Status: model.StageFailed, Attempt: 1, EnteredAt: t0},
		},
		History: []model.Transition{
			{At: t0, From: "low-risk", To: "implement", Why: "gate failed"},
			{At: at(1), From: "implement", To: "analyze", Why: "agent coder reported complete"},
			{At: at(2), From: "analyze", To: "implement", Why: "agent analyzer reported revise"},
		}}
	got := Render(outcomeConfig(), state(run))
	assert.Contains(t, got, "| analyze | ↩️ revise → `implement` |")
	assert.Contains(t, got, "| low-risk | ↪️ on_fail → `implement` |")
	assert.Equal(t, 1, strings.Count(got, waiting), "the waiting message is said once, under Why it waits")
	assert.Contains(t, got, "<details><summary>Chart</summary>")

	// A verdict that ended the run is no loop: it shows as the stage's status.
	run.History = append(run.History, model.Transition{At: at(3), From: "analyze", To: lang.TargetFail})
	assert.Contains(t, Render(outcomeConfig(), state(run)), "| analyze | ✅ succeeded |")
}
