package state

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/model"
)

// A stage the run left before it finished — the merge guard took the run back from merge to
// ready — does not show as waiting: only the stage the run stands at does.
func TestRenderStageLeftUnfinished(t *testing.T) {
	r := waitingRun()
	r.Stages["merge"] = &model.StageRun{Status: model.StageWaiting, Attempt: 1, EnteredAt: at(10)}
	r.History = append(r.History,
		model.Transition{At: at(10), Actor: "dev", From: "ready", To: "merge", Why: "gate passed"},
		model.Transition{At: at(11), Actor: "dev", From: "merge", To: "ready", Why: `gate "ready" no longer holds`})
	got := Render(testConfig(), state(r))
	assert.Contains(t, got, "| merge | ↩️ left → `ready` |")
	assert.Contains(t, got, "| ready | ⏳ waiting |")
}
