package gates

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
)

func TestDefaultRegistry(t *testing.T) {
	r := Default()
	assert.Equal(t, []string{"branch_up_to_date", "ci_status", "codeowners_approved", "command", "deployment", "expr", "file_exists", "http", "human_approved",
		"label_present", "no_changes_requested", "pr_approvals_met", "schedule"}, r.Names())
	for _, name := range r.Names() {
		g, ok := r.Lookup(name)
		assert.True(t, ok, name)
		assert.NotNil(t, g, name)
	}
	_, ok := r.Lookup("deployment_ready")
	assert.False(t, ok)
}

const autoMerge = `version: 1
pipelines:
  auto-merge:
    trigger:
      event: pull_request.opened
    stages:
      - id: ready
        type: gate
        conditions:
          - check: human_approved
            count: 2
          - check: no_changes_requested
          - check: ci_status
            checks: [test]
          - check: label_present
            label: automerge
            optional: true
      - id: merge
        type: action
        action: merge_pr
`

func TestLoadWithDefaultGates(t *testing.T) {
	cfg, err := engine.Load("pipelines.yaml", []byte(autoMerge), Default())
	require.NoError(t, err)
	conds := cfg.Pipeline("auto-merge").Stage("ready").Conditions
	require.Len(t, conds, 4)

	f := facts(review("alice", model.ReviewApproved, head), check("test", model.CheckSuccess))
	var got []model.GateStatus
	for _, c := range conds {
		require.NotNil(t, c.Eval, c.Check)
		got = append(got, c.Eval.(engine.Check).Evaluate(f).Status)
	}
	assert.Equal(t, []model.GateStatus{model.GatePending, model.GatePass, model.GatePass, model.GatePending}, got)
}

func TestLoadGateParamErrors(t *testing.T) {
	tests := []struct {
		name      string
		condition string
		want      string
	}{
		{
			name:      "unknown param",
			condition: "- check: ci_status\n  jobs: [test]",
			want:      `pipelines.yaml:10:13: unknown key "jobs" for check "ci_status"; it takes "checks", "expect", "pr", "workflows" [key]`,
		},
		{
			name:      "bad param type",
			condition: "- check: human_approved\n  count: [1]",
			want:      `pipelines.yaml:10:20: "count" of check "human_approved" must be an integer [gate]`,
		},
		{
			name:      "bad enum",
			condition: "- check: ci_status\n  expect: green",
			want:      `pipelines.yaml:10:21: "expect" of check "ci_status" must be one of "success", "failure", "pending", not "green" [gate]`,
		},
		{
			name:      "missing required param",
			condition: "- check: label_present",
			want:      `pipelines.yaml:9:13: missing required key "label" for check "label_present" [gate]`,
		},
		{
			name:      "no_changes_requested takes only pr",
			condition: "- check: no_changes_requested\n  count: 1",
			want:      `pipelines.yaml:10:13: unknown key "count" for check "no_changes_requested"; it takes "pr" [key]`,
		},
		{
			name:      "misspelt param",
			condition: "- check: human_approved\n  cuont: 2",
			want:      `pipelines.yaml:10:13: unknown key "cuont" for check "human_approved"; did you mean "count"? [key]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "version: 1\npipelines:\n  p:\n    trigger: {event: pull_request.opened}\n" +
				"    stages:\n      - id: g\n        type: gate\n        conditions:\n" +
				indent(tt.condition, "          ") + "\n"
			cfg, err := engine.Load("pipelines.yaml", []byte(src), Default())
			require.Error(t, err)
			assert.Nil(t, cfg)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func indent(s, prefix string) string {
	out := prefix
	for _, r := range s {
		out += string(r)
		if r == '\n' {
			out += prefix
		}
	}
	return out
}

// A gate's expression names stages as a condition does: one its pipeline does not have is
// a load error at its place, and so is a custom gate's, where the gate is defined.
func TestGateExpressionNamesAStageItsPipelineHas(t *testing.T) {
	src := `version: 1
settings:
  custom_gates:
    reviewed:
      conditions: [{check: expr, expr: "stages.reviw.verdict == 'approve'"}]
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - {id: review, type: gate, conditions: [{check: expr, expr: "stages.review.status != '' && stages.nope.outputs.x == 1"}]}
      - {id: ok, type: gate, conditions: [{check: reviewed}]}
`
	_, err := engine.Load("pipelines.yaml", []byte(src), Default())
	require.Error(t, err)
	assert.Equal(t, `pipelines.yaml:5:41: unknown stage "reviw" in an expression of pipeline "p" (stages.reviw); did you mean "review"? [ref]
pipelines.yaml:10:98: unknown stage "nope" in an expression of pipeline "p" (stages.nope); expected one of "review", "ok" [ref]`, err.Error())
}
