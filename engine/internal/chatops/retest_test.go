package chatops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/model"
)

// `/pipeline retest` asks for one rerun per failed workflow run on the head — not for a
// status, a check of another app, or a run that passed — once per head per person.
func TestRetest(t *testing.T) {
	k := kernel("checks", model.RunCompleted) // no open run: it acts alone
	k.w.Facts.PR.Checks = []model.CheckResult{
		{Name: "test", Kind: "check_run", State: model.CheckFailure, Workflow: "ci", RunID: 5000000002},
		{Name: "lint", Kind: "check_run", State: model.CheckFailure, Workflow: "ci", RunID: 5000000002},
		{Name: "docs", Kind: "check_run", State: model.CheckSuccess, Workflow: "docs", RunID: 5000000003},
		{Name: "e2e", Kind: "check_run", State: model.CheckFailure, Workflow: "e2e", RunID: 5000000004},
		{Name: "vendor", Kind: "check_run", State: model.CheckFailure},
		{Name: "deploy", Kind: "status", State: model.CheckFailure},
	}
	k.say([3]string{"1", "alice", "/pipeline retest"})
	Comments(k)
	var runs []int64
	for _, e := range k.effects {
		if e.Kind == model.EffectRerun {
			runs = append(runs, e.RunID)
			assert.True(t, e.WriteAhead, "performed by the invocation whose save won")
		}
	}
	assert.Equal(t, []int64{5000000002, 5000000004}, runs)
	head := model.Short(k.w.Facts.PR.HeadSHA)
	require.Equal(t, []string{"@alice Re-running the failed jobs of ci, e2e on " + head + "."}, k.replies())
	assert.Equal(t, []string{"alice@" + k.w.Facts.PR.HeadSHA}, k.w.St.Retested)

	k.effects = nil
	k.say([3]string{"2", "Alice", "/pipeline retest"})
	Comments(k)
	assert.Equal(t, []string{"@Alice You asked for a retest of " + head + " already; a new push is a new head."}, k.replies())

	k.effects = nil
	k.w.Facts.PR.HeadSHA = "feedfacefeedface"
	k.w.Facts.PR.Checks = nil
	k.say([3]string{"3", "alice", "/pipeline retest"})
	Comments(k)
	assert.Equal(t, []string{"@alice No workflow run on feedfac has a failed check to re-run."}, k.replies())
}
