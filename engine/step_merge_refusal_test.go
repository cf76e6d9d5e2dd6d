package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func TestMergeWaitsWhileMergeabilityIsUnknownAndPollsThroughTheSweep(t *testing.T) {
	cfg := mergeConfig(nil, nil)
	f := prFacts("ok")
	f.PR.Mergeable = model.Unknown
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	run := res.State.Runs[0]
	assert.Empty(t, res.Effects, "no merge is tried on UNKNOWN")
	assert.Equal(t, "merge", run.Stage)
	assert.Equal(t, model.RunWaiting, run.Status)
	require.Len(t, run.Stages["merge"].Deadlines, 1)
	assert.Equal(t, model.DeadlineMergeability, run.Stages["merge"].Deadlines[0].Kind)
	assert.Equal(t, t0.Add(mergeabilityInterval), run.NextDeadline(), "the sweep comes back for it")

	// The sweep, once due: GitHub knows now, and the run merges.
	f2 := prFacts("ok")
	f2.PR.Mergeable = model.Mergeable
	swept := Step(cfg, res.State, model.Input{Key: "sweep", Event: "schedule"}, f2, t0.Add(mergeabilityInterval))
	require.Len(t, swept.Effects, 1)
	assert.Equal(t, model.EffectMerge, swept.Effects[0].Kind)
	assert.Empty(t, swept.State.Runs[0].Stages["merge"].Deadlines)
}

func TestMergeEscalatesWhenMergeabilityStaysUnknown(t *testing.T) {
	cfg := mergeConfig(nil, nil)
	f := prFacts("ok")
	f.PR.MergeState = "UNKNOWN"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	now := t0
	for i := 0; i < mergeabilityPolls; i++ {
		require.Equal(t, model.RunWaiting, res.State.Runs[0].Status, "poll %d", i)
		now = res.State.Runs[0].NextDeadline()
		res = Step(cfg, res.State, model.Input{Key: "sweep", Event: "schedule"}, f, now)
		assert.Empty(t, res.Effects)
	}
	run := res.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Contains(t, run.Message, "GitHub has not computed whether #7 can be merged after 12 checks over 1h")
	assert.Equal(t, t0.Add(time.Hour), now)
}

func TestMergeBehindIsUpdatedOncePerHead(t *testing.T) {
	cfg := mergeConfig(nil, nil)
	f := prFacts("ok")
	f.PR.Mergeable, f.PR.MergeState = model.Mergeable, "BEHIND"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	eff := res.Effects[0]
	assert.Equal(t, model.EffectUpdateBranch, eff.Kind)
	assert.Equal(t, "aaaaaaaaaa", eff.SHA, "only the head the gates hold on is updated")
	assert.Equal(t, model.RunWaiting, res.State.Runs[0].Status)

	// Its outcome does not end the merge stage; another event on the same head asks nothing.
	settled := Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: eff.Key}}, f, t0)
	assert.Equal(t, "merge", settled.State.Runs[0].Stage)
	assert.Equal(t, model.RunWaiting, settled.State.Runs[0].Status)
	again := Step(cfg, settled.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, f, t0)
	assert.Empty(t, again.Effects)

	// A refusal only a person can lift escalates.
	refused := Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: eff.Key, Err: "update_branch refused (403): no", Permanent: true}}, f, t0)
	assert.Equal(t, model.RunEscalated, refused.State.Runs[0].Status)
	assert.Contains(t, refused.State.Runs[0].Message, "could not be brought up to date: update_branch refused (403): no")

	// when_behind: escalate asks a person instead.
	cfg.Pipelines[0].Stages[1].Config.WhenBehind = lang.WhenBehindEscalate
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunEscalated, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Message, `behind its base branch "main"`)
}

func TestMergeRefusedForASettingEscalatesOnce(t *testing.T) {
	cfg := mergeConfig(nil, nil)
	f := prFacts("ok")
	f.PR.Mergeable = model.Mergeable
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	why := "merge refused (405): Changes must be made through the merge queue. The base branch requires the merge queue"
	settled := Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: res.Effects[0].Key, Err: why, Escalate: true}}, f, t0)
	run := settled.State.Runs[0]
	assert.Equal(t, model.RunEscalated, run.Status)
	assert.Equal(t, why, run.Message)
	escalations := 0
	for _, h := range run.History {
		if h.To == lang.TargetEscalate {
			escalations++
		}
	}
	assert.Equal(t, 1, escalations)
	// Later events try no merge.
	for i, ev := range []string{"pull_request.labeled", "check_run.completed", "pull_request_review.submitted"} {
		later := Step(cfg, settled.State, model.Input{Key: "k" + strings.Repeat("x", i+2), Event: ev}, f, t0)
		assert.Empty(t, later.Effects, ev)
		assert.Equal(t, model.RunEscalated, later.State.Runs[0].Status)
	}
}

func TestUpdateBranchAction(t *testing.T) {
	cfg := stepConfig()
	cfg.Pipelines[0].Stages[1] = &lang.Stage{ID: "merge", Type: lang.StageAction, Action: lang.ActionUpdateBranch, OnSuccess: lang.TargetComplete}
	f := prFacts("ok")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	require.Len(t, res.Effects, 1)
	assert.Equal(t, model.EffectUpdateBranch, res.Effects[0].Kind)
	assert.Equal(t, "aaaaaaaaaa", res.Effects[0].SHA)
	done := Settle(cfg, res.State, model.Input{Key: "k1"}, []model.Outcome{{Key: res.Effects[0].Key}}, f, t0)
	assert.Equal(t, model.RunCompleted, done.State.Runs[0].Status)

	// Up to date as the facts tell: nothing to ask.
	zero := 0
	f.PR.BehindBy = &zero
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, f, t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
}
