package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// escalations counts run's escalations in its history.
func escalations(run *model.Run) int {
	n := 0
	for _, h := range run.History {
		if h.To == lang.TargetEscalate {
			n++
		}
	}
	return n
}

// TestBehindWithActionsToken: with a workflow's GITHUB_TOKEN a head behind its strict base
// is not updated (CI would never run on the update): the run escalates once, naming the fix,
// and later events ask nothing.
func TestBehindWithActionsToken(t *testing.T) {
	cfg := mergeConfig(nil, nil)
	f := prFacts("ok")
	f.ActionsToken = true
	f.PR.Mergeable, f.PR.MergeState = model.Mergeable, "BEHIND"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Empty(t, res.Effects, "no update with GITHUB_TOKEN")
	run := res.State.Runs[0]
	require.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Message, `the head of #7 is behind its base branch "main"`)
	assert.Contains(t, run.Message, "the action runs with the workflow's GITHUB_TOKEN")
	assert.Contains(t, run.Message, "give the action a GitHub App's token")
	for _, ev := range []string{"pull_request.labeled", "check_run.completed"} {
		res = Step(cfg, res.State, model.Input{Key: "k-" + ev, Event: ev}, f, t0)
		assert.Empty(t, res.Effects, ev)
	}
	assert.Equal(t, 1, escalations(res.State.Runs[0]))

	f.ActionsToken = false
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1, "an app's token updates the branch")
	assert.Equal(t, model.EffectUpdateBranch, res.Effects[0].Kind)
}

// TestUpdateBranchActionWithActionsToken: the update_branch action escalates with
// GITHUB_TOKEN instead of updating, unless the head is known to be up to date.
func TestUpdateBranchActionWithActionsToken(t *testing.T) {
	cfg := stepConfig()
	cfg.Pipelines[0].Stages[1] = &lang.Stage{ID: "merge", Type: lang.StageAction, Action: lang.ActionUpdateBranch, OnSuccess: lang.TargetComplete}
	f := prFacts("ok")
	f.ActionsToken = true
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Empty(t, res.Effects)
	run := res.State.Runs[0]
	require.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Message, `stage "merge" would bring #7 up to date with its base branch "main"`)
	assert.Contains(t, run.Message, "give the action a GitHub App's token")
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, f, t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, 1, escalations(res.State.Runs[0]))

	zero := 0
	f.PR.BehindBy = &zero
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status, "nothing to update")
}
