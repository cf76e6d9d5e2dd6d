package engine

import (
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func holdConfig() *lang.Config {
	return &lang.Config{Version: 1, BlobOID: "blob1", Pipelines: []*lang.Pipeline{{
		Name:    "security-hold",
		Trigger: lang.Trigger{Event: "pull_request.labeled", Labels: []string{"security"}},
		Stages: []*lang.Stage{
			{ID: "approval", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
		},
	}}}
}

// Triggers are level-triggered: a pipeline whose labeled event was lost starts on the
// next event, late, and says so; once started, it does not start again until its label
// is added anew, whatever other labels come and go.
func TestStepLevelTriggeredLabel(t *testing.T) {
	cfg := holdConfig()
	f := prFacts("security")
	f.PR.CreatedAt = t0
	f.PR.Timeline = []model.TimelineEvent{{Kind: model.TimelineLabeled, Label: "Security", At: t0.Add(time.Minute)}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request_review.submitted"}, f, t0.Add(2*time.Minute))
	require.Len(t, res.State.Runs, 1, "started late")
	run := res.State.Runs[0]
	assert.Contains(t, run.History[0].Why, "started late on pull_request_review.submitted: its trigger pull_request.labeled holds since 2026-01-05 09:01 UTC")
	assert.Equal(t, t0.Add(time.Minute), run.TriggerAt)

	// It completes; an unrelated label, and the late delivery of the lost event, start nothing.
	f.PR.Labels = append(f.PR.Labels, "ok", "docs")
	f.PR.Timeline = append(f.PR.Timeline, model.TimelineEvent{Kind: model.TimelineLabeled, Label: "ok", At: t0.Add(3 * time.Minute)},
		model.TimelineEvent{Kind: model.TimelineLabeled, Label: "docs", At: t0.Add(4 * time.Minute)})
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled", Label: "docs"}, f, t0.Add(4*time.Minute))
	require.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	res = Step(cfg, res.State, model.Input{Key: "k3", Event: "pull_request.labeled", Label: "docs"}, f, t0.Add(5*time.Minute))
	res = Step(cfg, res.State, model.Input{Key: "k0", Event: "pull_request.labeled", Label: "security"}, f, t0.Add(5*time.Minute))
	assert.Len(t, res.State.Runs, 1, "no flap: the label it waits for has not been added anew")

	// Removed and added again: a new run.
	f.PR.Timeline = append(f.PR.Timeline, model.TimelineEvent{Kind: model.TimelineUnlabeled, Label: "security", At: t0.Add(6 * time.Minute)},
		model.TimelineEvent{Kind: model.TimelineLabeled, Label: "security", At: t0.Add(7 * time.Minute)})
	res = Step(cfg, res.State, model.Input{Key: "k4", Event: "pull_request.labeled", Label: "security"}, f, t0.Add(7*time.Minute))
	require.Len(t, res.State.Runs, 2)
	assert.Equal(t, "started on pull_request.labeled", res.State.Runs[1].History[0].Why)

	// Without the label, no event starts it.
	g := prFacts("docs")
	g.PR.CreatedAt = t0
	res = Step(cfg, nil, model.Input{Key: "k5", Event: "pull_request.labeled", Label: "docs"}, g, t0)
	assert.Empty(t, res.State.Runs)
}

// A run whose PR was retargeted to a base its trigger does not take is cancelled, saying
// why, whatever event brings the news.
func TestStepBaseChangeCancels(t *testing.T) {
	cfg := stepConfig()
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	moved := prFacts("ok")
	moved.PR.BaseRef = "release-1.x"
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request_review.submitted"}, moved, t0)
	assert.Empty(t, res.Effects)
	run := res.State.Runs[0]
	assert.Equal(t, model.RunCancelled, run.Status)
	assert.Equal(t, `the base branch changed to "release-1.x"; pipeline "auto-merge" runs on pull requests into "main"`, run.Message)
}
