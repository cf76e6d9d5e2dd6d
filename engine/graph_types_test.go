package engine

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestMermaidStageTypes pins the drawing of each stage type and transition kind.
func TestMermaidStageTypes(t *testing.T) {
	tests := []struct {
		name string
		p    *Pipeline
		run  *Run
	}{
		{name: "agent", p: &Pipeline{Name: "dev", Stages: []*Stage{
			{ID: "implement", Type: StageAgent, Agent: "feat-dev", AgentAction: "implement",
				OnError: &ErrorPolicy{Retry: 2, Then: TargetEscalate}},
			{ID: "security", Type: StageAgent, Agent: "security-review", AgentAction: "review",
				Condition: &Predicate{LabelsInclude: []string{"security"}}, SkipTo: "analyze",
				OnTimeout: &Rule{Then: TargetFail}},
			{ID: "analyze", Type: StageAgent, Agent: "analyst", OnError: &ErrorPolicy{},
				Verdicts: map[string]*Rule{
					"on_followup": {Goto: "implement", MaxIterations: 3, Then: TargetEscalate},
					"on_failed":   {Goto: TargetFail},
					"on_revise":   {Goto: "implement"},
					"on_reject":   {Goto: TargetCancel},
				}},
		}}},
		{name: "human", p: &Pipeline{Name: "approve", Stages: []*Stage{
			{ID: "maintainer-approval", Type: StageHuman, WaitFor: "approval", From: "maintainers", Count: 2,
				OnTimeout: &Rule{Labels: []string{"needs-attention"}, Then: TargetEscalate}},
			{ID: "ack", Type: StageHuman, WaitFor: "comment", OnTimeout: &Rule{Then: "extend", Extend: 24 * time.Hour}},
		}}},
		{name: "parallel", p: &Pipeline{Name: "reviews", Stages: []*Stage{
			{ID: "review", Type: StageParallel, Join: "all", OnComplete: "approval-gate",
				OnAnyReject: &Rule{Goto: "review"},
				Branches: []*Stage{
					{ID: "test-review", Type: StageAgent, Agent: "test-coverage", AgentAction: "review"},
					{ID: "security-review", Type: StageAgent, Agent: "security-review", AgentAction: "review",
						Condition: &Predicate{LabelsInclude: []string{"security"}}},
					{ID: "api", Type: StagePipeline, Pipeline: "standard-review", OnError: &ErrorPolicy{Then: TargetEscalate}},
					{ID: "merge-api", Type: StageAction, Action: ActionMergePR},
				}},
			{ID: "approval-gate", Type: StageGate},
			{ID: "two-of", Type: StageParallel, Join: "2", JoinCount: 2, Branches: []*Stage{
				{ID: "a", Type: StageAgent, Agent: "x"},
				{ID: "b", Type: StageAgent, Agent: "y"},
				{ID: "c", Type: StageAgent, Agent: "z"},
			}},
			{ID: "empty", Type: StageParallel, Join: "any"},
		}}},
		{name: "delay", p: &Pipeline{Name: "wait", Stages: []*Stage{
			{ID: "wait-for-ci", Type: StageDelay, Duration: 30 * time.Second,
				Poll: &Poll{Interval: 5 * time.Second, OnReady: pollSkipRemaining}},
			{ID: "cool-off", Type: StageDelay, Duration: 90 * time.Minute,
				Poll: &Poll{Interval: time.Minute, OnReady: "merge"}},
			{ID: "long", Type: StageDelay, Duration: 72 * time.Hour},
			{ID: "merge", Type: StageAction, Action: ActionMergePR},
		}}},
		{name: "webhook", p: &Pipeline{Name: "hooks", Stages: []*Stage{
			{ID: "external-check", Type: StageWebhook, OnFailure: TargetEscalate,
				Request: &Request{URL: &Template{Src: "https://api.example.com/validate"}}},
			{ID: "templated", Type: StageWebhook, OnSuccess: TargetComplete,
				Request: &Request{Method: "PUT", URL: &Template{Src: "{{ context.url }}"}}},
		}}},
		{name: "pipeline", p: &Pipeline{Name: "feature-dev", Stages: []*Stage{
			{ID: "implement", Type: StageAgent, Agent: "feat-dev", OnComplete: "review"},
			{ID: "review", Type: StagePipeline, Pipeline: "standard-review", OnComplete: "merge",
				OnError: &ErrorPolicy{Then: TargetEscalate}},
			{ID: "merge", Type: StageAction, Action: ActionMergePR},
		}}},
		{name: "action_rules", p: &Pipeline{Name: "merge", Stages: []*Stage{
			{ID: "approval-gate", Type: StageGate, Timeout: 24 * time.Hour,
				OnFailRule: &Rule{Goto: "fix", MaxIterations: 3, Then: TargetEscalate},
				OnTimeout:  &Rule{Notify: &Notify{}, Then: TargetEscalate}},
			{ID: "auto-merge", Type: StageAction, Action: ActionMergePR, OnSuccess: TargetComplete,
				OnConflict:  &Rule{Labels: []string{"merge-conflict"}},
				OnCIFailure: &Rule{Goto: "approval-gate", MaxIterations: 2, Then: TargetEscalate}},
			{ID: "fix", Type: StageAgent, Agent: "feat-dev", OnComplete: "approval-gate"},
		}}},
		{name: "parallel_run", p: &Pipeline{Name: "reviews", Stages: []*Stage{
			{ID: "implement", Type: StageAgent, Agent: "dev"},
			{ID: "review", Type: StageParallel, Branches: []*Stage{
				{ID: "one", Type: StageAgent, Agent: "x"},
				{ID: "two", Type: StageAgent, Agent: "y"},
			}},
		}}, run: &Run{Status: RunRunning, Stage: "review", Stages: map[string]*StageRun{
			"implement": {Status: StageSucceeded},
			"one":       {Status: StagePassed},
			"two":       {Status: StageFailed},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Mermaid(tt.p, tt.run)
			assert.Equal(t, got, Mermaid(tt.p, tt.run), "deterministic")
			checkGraphGolden(t, filepath.Join("testdata", "graph", tt.name+".mmd"), got)
		})
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "30s", 5 * time.Minute: "5m", 2 * time.Hour: "2h",
		90 * time.Minute: "1h30m", 72 * time.Hour: "72h", 0: "0s", 61 * time.Second: "1m1s",
	} {
		assert.Equal(t, want, shortDuration(d), d.String())
	}
}
