package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

// Labels compare as GitHub compares them: without regard to case.
func TestLabelsIgnoreCase(t *testing.T) {
	pr := &model.PullRequest{Labels: []string{"Security", "WIP", "needs review"}}
	for _, name := range []string{"security", "SECURITY", "Security", "wip", "Needs Review"} {
		assert.True(t, pr.HasLabel(name), name)
	}
	for _, name := range []string{"secure", "wip ", "needs-review", ""} {
		assert.False(t, pr.HasLabel(name), name)
	}
	on, ok := pr.Label("wip")
	assert.True(t, ok)
	assert.Equal(t, "WIP", on, "the name as the PR carries it")
	_, ok = pr.Label("hold")
	assert.False(t, ok)
}

func TestStepLabelEffectsIgnoreCase(t *testing.T) {
	action := func(kind string, labels ...string) *lang.Config {
		return &lang.Config{Pipelines: []*lang.Pipeline{{
			Name:    "label",
			Trigger: lang.Trigger{Event: "pull_request.opened"},
			Stages: []*lang.Stage{
				{ID: "tag", Type: lang.StageAction, Action: kind, Config: lang.ActionConfig{Labels: labels}, OnSuccess: lang.TargetComplete},
			},
		}}}
	}
	tests := []struct {
		name   string
		config *lang.Config
		labels []string // on the PR
		want   []string // the effect's labels; nil: none, the stage is done
	}{
		{name: "a label present in another case is not added", config: action(lang.ActionAddLabel, "security"),
			labels: []string{"Security"}},
		{name: "a label named twice in two cases is added once", config: action(lang.ActionAddLabel, "hold", "HOLD"),
			want: []string{"hold"}},
		{name: "remove sends the name the PR carries", config: action(lang.ActionRemoveLabel, "wip"),
			labels: []string{"WIP", "bug"}, want: []string{"WIP"}},
		{name: "remove of a label named twice sends it once", config: action(lang.ActionRemoveLabel, "wip", "Wip"),
			labels: []string{"WIP"}, want: []string{"WIP"}},
		{name: "remove of an absent label is done", config: action(lang.ActionRemoveLabel, "wip"),
			labels: []string{"bug"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Step(tt.config, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(tt.labels...), t0)
			require.Len(t, res.State.Runs, 1)
			if tt.want == nil {
				assert.Empty(t, res.Effects)
				assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
				return
			}
			require.Len(t, res.Effects, 1)
			assert.Equal(t, tt.want, res.Effects[0].Labels)
		})
	}
}

func TestStepTriggerLabelIgnoresCase(t *testing.T) {
	cfg := &lang.Config{Pipelines: []*lang.Pipeline{{
		Name:    "security-hold",
		Trigger: lang.Trigger{Event: "pull_request.labeled", Labels: []string{"security"}},
		Stages: []*lang.Stage{
			{ID: "wait", Type: lang.StageGate, OnPass: lang.TargetComplete, Conditions: []lang.Condition{{Check: "ok", Eval: labelCheck("ok")}}},
		},
	}}}
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.labeled", Label: "Security"}, prFacts("Security"), t0)
	assert.Len(t, res.State.Runs, 1, "`Security` is the label `security`")
	res = Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.labeled", Label: "securities"}, prFacts("securities"), t0)
	assert.Empty(t, res.State.Runs)
}
