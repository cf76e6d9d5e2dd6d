package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// The action's own commit statuses (settings.status_check) are not CI: a ci_status over
// every check ignores them — else a pipeline would wait on its own pending status — and
// one may not name them.
func TestCIStatusIgnoresTheActionsOwnStatuses(t *testing.T) {
	c, errs := compile(t, CIStatus{}, "ci_status", "{}")
	require.Empty(t, errs)
	got := c.Evaluate(facts(check("test", model.CheckSuccess), commitStatus("pipeline-action/review", model.CheckPending),
		commitStatus("pipeline-action/merge", model.CheckFailure)))
	assert.Equal(t, model.GateResult{Check: "ci_status", Status: model.GatePass, Message: `check "test" passed`}, got)

	got = c.Evaluate(facts(commitStatus("pipeline-action/review", model.CheckSuccess)))
	assert.Equal(t, model.GatePending, got.Status, "the action's own status alone is no CI at all")

	_, errs = compile(t, CIStatus{}, "ci_status", "{checks: [test, pipeline-action/review]}")
	assert.Equal(t, `t.yaml:1:10: "checks" of check "ci_status" names "pipeline-action/review", a status the action itself writes (settings.status_check), which no gate waits on [gate]`,
		lang.ErrorList(errs).Error())
}
