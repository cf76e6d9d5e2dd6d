package wfgen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine"
	"github.com/org/pipeline-action/engine/lang/load"
	"github.com/org/pipeline-action/gates"
)

func needs(t *testing.T, src string, ci ...string) map[string]Need {
	t.Helper()
	cfg, err := engine.LoadFiles([]load.SourceFile{{Path: "p.yaml", Src: []byte(src)}}, gates.Default())
	require.NoError(t, err)
	out := map[string]Need{}
	for _, n := range Needs(cfg, src, func(f string) string { return "wf:" + f }, ci) {
		out[n.Event] = n
	}
	return out
}

const plain = `version: 1
pipelines:
  p: {trigger: {event: pull_request.opened}, stages: [{id: ci, type: gate, conditions: [{check: ci_status, workflows: [build]}]}]}
`

func TestAPlainPipelineNeedsLittle(t *testing.T) {
	n := needs(t, plain)
	assert.Equal(t, []string{"opened", "reopened", "synchronize", "closed"}, n["pull_request_target"].Types)
	assert.NotContains(t, n, "pull_request_review", "nothing reads reviews")
	assert.NotContains(t, n, "status", "ci_status names its workflows")
	assert.NotContains(t, n, "issues")
	assert.NotContains(t, n, "deployment_status")
	assert.NotContains(t, n, "push", "no pipeline keeps its pull requests up to date")
	assert.Equal(t, []string{"build"}, n["workflow_run"].Workflows)
	assert.Contains(t, n, "workflow_dispatch")
	assert.Contains(t, n, "issue_comment", "/pipeline commands")
}

func TestWhatTheConfigReadsAddsTypes(t *testing.T) {
	src := `version: 1
agents:
  fixer: {dispatch: workflow, workflow: fix.yml}
pipelines:
  p:
    trigger: {event: pull_request.labeled, conditions: {labels: [go]}}
    stages:
      - id: ok
        type: gate
        conditions: [{check: human_approved}, {check: ci_status}]
        on_pass: fix
      - id: fix
        type: agent
        agent: fixer
      - id: merge
        type: action
        action: merge_pr
  t:
    trigger: {event: issues.opened}
    stages:
      - id: d
        type: gate
        conditions: [{check: deployment, environment: prod}]
`
	n := needs(t, src, "ci")
	assert.Equal(t, []string{"opened", "reopened", "synchronize", "labeled", "unlabeled", "ready_for_review", "closed"}, n["pull_request_target"].Types)
	assert.Contains(t, n["pull_request_review"].Why, "human_approved")
	assert.Contains(t, n, "status", "ci_status waits for every check: a status may be one")
	assert.Equal(t, []string{"wf:fix.yml", "ci"}, n["workflow_run"].Workflows)
	assert.Equal(t, []string{"opened", "reopened", "labeled", "unlabeled", "closed"}, n["issues"].Types)
	assert.Contains(t, n, "deployment_status")
}

func TestCommentsOnlyAsCommands(t *testing.T) {
	cfg, err := engine.LoadFiles([]load.SourceFile{{Path: "p.yaml", Src: []byte(plain)}}, gates.Default())
	require.NoError(t, err)
	assert.Equal(t, CommandsOnly, If(cfg, plain))

	human := strings.Replace(plain, "workflows: [build]}]}", "workflows: [build]}]}, {id: ask, type: human, wait_for: comment}", 1)
	cfg, err = engine.LoadFiles([]load.SourceFile{{Path: "p.yaml", Src: []byte(human)}}, gates.Default())
	require.NoError(t, err)
	assert.Empty(t, If(cfg, human), "a human stage waits for any comment")
}

func TestBlockIsTheWorkflowsOn(t *testing.T) {
	out := Block([]Need{
		{Event: "pull_request_target", Types: []string{"opened", "closed"}, Why: "runs"},
		{Event: "workflow_run", Types: []string{"completed"}, Why: "CI", Workflows: []string{"ci", "agent: fix"}},
		{Event: "status", Why: "statuses"},
	}, "pipeline-action/state")
	assert.Equal(t, `on:
  pull_request_target:   # runs
    types: [opened, closed]
  workflow_run:   # CI
    workflows: [ci, "agent: fix"]
    types: [completed]
    branches-ignore: [pipeline-action/state]
  status:   # statuses
`, out)
}

// TestKeepUpToDateListensToItsBases: keep_up_to_date needs the pushes to the bases its
// pipelines' triggers name, and only those; a trigger that names none takes any branch but
// the state branch and the merge queue's.
func TestKeepUpToDateListensToItsBases(t *testing.T) {
	src := `version: 1
pipelines:
  a: {trigger: {event: pull_request.opened, conditions: {base_branch: main}}, keep_up_to_date: true, stages: [{id: m, type: action, action: merge_pr}]}
  b: {trigger: {event: pull_request.opened, conditions: {base_branch: release}}, keep_up_to_date: {update_method: rebase}, stages: [{id: m, type: action, action: merge_pr}]}
  c: {trigger: {event: pull_request.opened}, stages: [{id: m, type: action, action: merge_pr}]}
`
	n := needs(t, src)
	require.Contains(t, n, "push")
	assert.Equal(t, []string{"main", "release"}, n["push"].Branches)
	assert.Contains(t, Block([]Need{n["push"]}, ""), "    branches: [main, release]\n")

	anyBase := strings.Replace(src, "c: {trigger: {event: pull_request.opened}, stages", "c: {trigger: {event: pull_request.opened}, keep_up_to_date: true, stages", 1)
	n = needs(t, anyBase)
	assert.Empty(t, n["push"].Branches)
	assert.Contains(t, Block([]Need{n["push"]}, ""), `    branches-ignore: [pipeline-action/state, "gh-readonly-queue/**"]`)
}
