package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// headCheck passes when the head carries a mark: approvals and CI results belong to
// a commit.
func headCheck(name string, marks map[string]bool) Check {
	return checkFunc(func(f *model.Facts) model.GateResult {
		if marks[f.PR.HeadSHA] {
			return model.GateResult{Status: model.GatePass, Message: name + " on " + f.PR.HeadSHA}
		}
		return model.GateResult{Status: model.GatePending, Message: "no " + name + " on " + f.PR.HeadSHA}
	})
}

// approve (gate) -> ci (gate) -> merge, with a push landing while the run waits at ci:
// ci passes on the new head, but the approval was on the old one.
func TestStepMergeGuardRechecksEveryEarlierGate(t *testing.T) {
	approved, green := map[string]bool{"aaaaaaaaaa": true}, map[string]bool{}
	cfg := &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name:    "approve-ci-merge",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{
			{ID: "approve", Type: lang.StageGate, OnPass: "ci", Conditions: []lang.Condition{{Check: "approval", Eval: headCheck("approval", approved)}}},
			{ID: "ci", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "ci", Eval: headCheck("ci", green)}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		},
	}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	require.Equal(t, "ci", res.State.Runs[0].Stage)

	pushed := prFacts()
	pushed.PR.HeadSHA = "bbbbbbbbbb"
	green["bbbbbbbbbb"] = true
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "check_suite.completed"}, pushed, t0.Add(time.Minute))
	assert.Empty(t, res.Effects, "the approval is on an older head: no merge")
	run := res.State.Runs[0]
	assert.Equal(t, "approve", run.Stage)
	assert.Contains(t, run.History[len(run.History)-1].Why, `gate "approve" no longer holds (approval: no approval on bbbbbbbbbb)`)

	approved["bbbbbbbbbb"] = true
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request_review.submitted"}, pushed, t0.Add(2*time.Minute))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "bbbbbbbbbb", res.Effects[0].SHA)
}

// A state that puts the run at its merge stage with every gate marked passed (forged,
// or left by a lost event) grants nothing: the gates are evaluated on today's facts.
func TestStepStoredStateNeverGrantsAMerge(t *testing.T) {
	cfg := stepConfig()
	forged := &model.State{Version: 1, Runs: []*model.Run{{
		ID: "auto-merge/7/1", Pipeline: "auto-merge", ConfigOID: "blob1", Subject: "acme/widgets#7",
		Status: model.RunRunning, Stage: "merge", VerifiedSHA: "aaaaaaaaaa", VerifiedBy: "ready",
		Stages: map[string]*model.StageRun{
			"ready": {Status: model.StagePassed, Attempt: 1},
			"merge": {Status: model.StageWaiting, Attempt: 1},
		},
	}}}
	res := Step(cfg, forged, model.Input{Key: "k1", Event: "pull_request_review.submitted"}, prFacts(), t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, "ready", res.State.Runs[0].Stage)

	// Nor does one that claims nothing about the gates at all.
	forged.Runs[0].VerifiedSHA, forged.Runs[0].VerifiedBy = "", ""
	delete(forged.Runs[0].Stages, "ready")
	res = Step(cfg, forged, model.Input{Key: "k1", Event: "pull_request_review.submitted"}, prFacts(), t0)
	assert.Empty(t, res.Effects)
	assert.Equal(t, "ready", res.State.Runs[0].Stage)
	assert.Contains(t, res.State.Runs[0].History[0].Why, `gate "ready" does not hold`)
}

// The guard follows the paths the config allows: a gate's on_fail is a way to the merge
// only while that gate decidedly fails.
func TestStepMergeGuardFollowsOnFail(t *testing.T) {
	fails := checkFunc(func(f *model.Facts) model.GateResult {
		if f.PR.HasLabel("broken") {
			return model.GateResult{Status: model.GateFail, Message: "broken"}
		}
		if f.PR.HasLabel("ok") {
			return model.GateResult{Status: model.GatePass, Message: "ok"}
		}
		return model.GateResult{Status: model.GatePending, Message: "running"}
	})
	cfg := &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name:    "override",
		Trigger: lang.Trigger{Event: "pull_request.opened"},
		Stages: []*lang.Stage{
			{ID: "ci", Type: lang.StageGate, OnPass: "merge", OnFail: "override", Conditions: []lang.Condition{{Check: "ci", Eval: fails}}},
			{ID: "override", Type: lang.StageGate, OnPass: "merge", Conditions: []lang.Condition{{Check: "override", Eval: labelCheck("override")}}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		},
	}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("broken", "override"), t0)
	require.Len(t, res.Effects, 1, "ci failed, the override holds: merged as the config says")

	// The same state, its merge never performed (the invocation that asked for it ended
	// without a word), but ci is running again now: neither path holds, and the merge is
	// not asked for again.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "check_suite.completed"}, prFacts("override"), t0.Add(model.DefaultIntentLease+model.IntentGrace))
	assert.Empty(t, res.Effects)
	assert.Equal(t, "ci", res.State.Runs[0].Stage)
}
