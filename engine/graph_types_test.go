package engine

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/graph"
	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"

	"github.com/org/pipeline-action/engine/lang"
)

// TestMermaidStageTypes pins the drawing of each stage type and transition kind.
func TestMermaidStageTypes(t *testing.T) {
	tests := []struct {
		name string
		p    *lang.Pipeline
		run  *model.Run
	}{
		{name: "agent", p: &lang.Pipeline{Name: "dev", Stages: []*lang.Stage{
			{ID: "implement", Type: lang.StageAgent, Agent: "feat-dev", AgentAction: "implement",
				OnError: &lang.ErrorPolicy{Retry: 2, Then: lang.TargetEscalate}},
			{ID: "security", Type: lang.StageAgent, Agent: "security-review", AgentAction: "review",
				Condition: &lang.Predicate{LabelsInclude: []string{"security"}}, SkipTo: "analyze",
				OnTimeout: &lang.Rule{Then: lang.TargetFail}},
			{ID: "analyze", Type: lang.StageAgent, Agent: "analyst", OnError: &lang.ErrorPolicy{},
				Verdicts: map[string]*lang.Rule{
					"on_followup": {Goto: "implement", MaxIterations: 3, Then: lang.TargetEscalate},
					"on_failed":   {Goto: lang.TargetFail},
					"on_revise":   {Goto: "implement"},
					"on_reject":   {Goto: lang.TargetCancel},
				}},
		}}},
		{name: "human", p: &lang.Pipeline{Name: "approve", Stages: []*lang.Stage{
			{ID: "maintainer-approval", Type: lang.StageHuman, WaitFor: "approval", From: "maintainers", Count: 2,
				OnTimeout: &lang.Rule{Labels: []string{"needs-attention"}, Then: lang.TargetEscalate}},
			{ID: "ack", Type: lang.StageHuman, WaitFor: "comment", OnTimeout: &lang.Rule{Then: "extend", Extend: 24 * time.Hour}},
		}}},
		{name: "parallel", p: &lang.Pipeline{Name: "reviews", Stages: []*lang.Stage{
			{ID: "review", Type: lang.StageParallel, Join: "all", OnComplete: "approval-gate",
				OnAnyReject: &lang.Rule{Goto: "review"},
				Branches: []*lang.Stage{
					{ID: "test-review", Type: lang.StageAgent, Agent: "test-coverage", AgentAction: "review"},
					{ID: "security-review", Type: lang.StageAgent, Agent: "security-review", AgentAction: "review",
						Condition: &lang.Predicate{LabelsInclude: []string{"security"}}},
					{ID: "api", Type: lang.StagePipeline, Pipeline: "standard-review", OnError: &lang.ErrorPolicy{Then: lang.TargetEscalate}},
					{ID: "merge-api", Type: lang.StageAction, Action: lang.ActionMergePR},
				}},
			{ID: "approval-gate", Type: lang.StageGate},
			{ID: "two-of", Type: lang.StageParallel, Join: "2", JoinCount: 2, Branches: []*lang.Stage{
				{ID: "a", Type: lang.StageAgent, Agent: "x"},
				{ID: "b", Type: lang.StageAgent, Agent: "y"},
				{ID: "c", Type: lang.StageAgent, Agent: "z"},
			}},
			{ID: "empty", Type: lang.StageParallel, Join: "any"},
		}}},
		{name: "delay", p: &lang.Pipeline{Name: "wait", Stages: []*lang.Stage{
			{ID: "wait-for-ci", Type: lang.StageDelay, Duration: 30 * time.Second,
				Poll: &lang.Poll{Interval: 5 * time.Second, OnReady: graph.PollSkipRemaining}},
			{ID: "cool-off", Type: lang.StageDelay, Duration: 90 * time.Minute,
				Poll: &lang.Poll{Interval: time.Minute, OnReady: "merge"}},
			{ID: "long", Type: lang.StageDelay, Duration: 72 * time.Hour},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		}}},
		{name: "webhook", p: &lang.Pipeline{Name: "hooks", Stages: []*lang.Stage{
			{ID: "external-check", Type: lang.StageWebhook, OnFailure: lang.TargetEscalate,
				Request: &lang.Request{URL: &lang.Template{Src: "https://api.example.com/validate"}}},
			{ID: "templated", Type: lang.StageWebhook, OnSuccess: lang.TargetComplete,
				Request: &lang.Request{Method: "PUT", URL: &lang.Template{Src: "{{ context.url }}"}}},
		}}},
		{name: "pipeline", p: &lang.Pipeline{Name: "feature-dev", Stages: []*lang.Stage{
			{ID: "implement", Type: lang.StageAgent, Agent: "feat-dev", OnComplete: "review"},
			{ID: "review", Type: lang.StagePipeline, Pipeline: "standard-review", OnComplete: "merge",
				OnError: &lang.ErrorPolicy{Then: lang.TargetEscalate}},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		}}},
		{name: "action_rules", p: &lang.Pipeline{Name: "merge", Stages: []*lang.Stage{
			{ID: "approval-gate", Type: lang.StageGate, Timeout: 24 * time.Hour,
				OnFailRule: &lang.Rule{Goto: "fix", MaxIterations: 3, Then: lang.TargetEscalate},
				OnTimeout:  &lang.Rule{Notify: &lang.Notify{}, Then: lang.TargetEscalate}},
			{ID: "auto-merge", Type: lang.StageAction, Action: lang.ActionMergePR, OnSuccess: lang.TargetComplete,
				OnConflict:  &lang.Rule{Labels: []string{"merge-conflict"}},
				OnCIFailure: &lang.Rule{Goto: "approval-gate", MaxIterations: 2, Then: lang.TargetEscalate}},
			{ID: "fix", Type: lang.StageAgent, Agent: "feat-dev", OnComplete: "approval-gate"},
		}}},
		{name: "gate_on_fail", p: &lang.Pipeline{Name: "gates", Stages: []*lang.Stage{
			{ID: "reviewed", Type: lang.StageGate, OnPass: "merge",
				OnFailRule: &lang.Rule{WhenCheckFailed: "no_changes_requested", Action: "notify_and_wait", Notify: &lang.Notify{}}},
			{ID: "green", Type: lang.StageGate,
				OnFailRule: &lang.Rule{WhenCheckFailed: "ci_status", Goto: "fix", MaxIterations: 2, Then: lang.TargetEscalate}},
			{ID: "fix", Type: lang.StageAgent, Agent: "dev", OnComplete: "green"},
			{ID: "merge", Type: lang.StageAction, Action: lang.ActionMergePR},
		}}},
		{name: "parallel_run", p: &lang.Pipeline{Name: "reviews", Stages: []*lang.Stage{
			{ID: "implement", Type: lang.StageAgent, Agent: "dev"},
			{ID: "review", Type: lang.StageParallel, Branches: []*lang.Stage{
				{ID: "one", Type: lang.StageAgent, Agent: "x"},
				{ID: "two", Type: lang.StageAgent, Agent: "y"},
			}},
		}}, run: &model.Run{Status: model.RunRunning, Stage: "review", Stages: map[string]*model.StageRun{
			"implement": {Status: model.StageSucceeded},
			"one":       {Status: model.StagePassed},
			"two":       {Status: model.StageFailed},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := graph.Mermaid(tt.p, tt.run)
			assert.Equal(t, got, graph.Mermaid(tt.p, tt.run), "deterministic")
			checkGraphGolden(t, filepath.Join("testdata", "graph", tt.name+".mmd"), got)
		})
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "30s", 5 * time.Minute: "5m", 2 * time.Hour: "2h",
		90 * time.Minute: "1h30m", 72 * time.Hour: "72h", 0: "0s", 61 * time.Second: "1m1s",
	} {
		assert.Equal(t, want, graph.ShortDuration(d), d.String())
	}
}
