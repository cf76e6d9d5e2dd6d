package scope

import (
	"fmt"
	"testing"

	"github.com/org/pipeline-action/engine/lang"
	"github.com/org/pipeline-action/engine/model"
	"github.com/org/pipeline-action/engine/stage/stagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type kernel struct {
	cfg   *lang.Config
	facts *model.Facts
	log   []string
}

func (k *kernel) Config() *lang.Config { return k.cfg }
func (k *kernel) State() *model.State  { return &model.State{} }
func (k *kernel) Facts() *model.Facts  { return k.facts }
func (k *kernel) Logf(format string, args ...any) {
	k.log = append(k.log, fmt.Sprintf(format, args...))
}
func (k *kernel) SubjectEnv(_ *lang.Pipeline, run *model.Run, env lang.Env) {
	env["issue"] = "kind's own"
}
func (k *kernel) Branches(*lang.Pipeline, *model.Run) any { return nil }

const src = `version: 1
agents:
  coder: {dispatch: workflow, workflow: code.yml}
pipelines:
  p:
    trigger: {event: pull_request.opened}
    context:
      title: "{{ trigger.pull_request.title }}"
      broken: "{{ context.nope.x }}"
    variables:
      shout: "{{ context.title }}!"
    stages:
      - id: g
        type: gate
        conditions:
          - check: a
          - {check: b, optional: true}
          - any_of: [{check: c}, {check: d}]
`

func setup(t *testing.T) (*kernel, *lang.Pipeline, *model.Run) {
	t.Helper()
	cfg := stagetest.Config(t, src)
	f := &model.Facts{Repo: "o/r", PR: &model.PullRequest{Number: 7, Title: "Add login", State: model.PROpen}}
	run := &model.Run{ID: "p/7/1", Pipeline: "p", Stage: "g", Stages: map[string]*model.StageRun{
		"g": {Attempt: 2, Status: model.StageWaiting, Outputs: map[string]any{"k": "v"}}}}
	return &kernel{cfg: cfg, facts: f}, cfg.Pipeline("p"), run
}

func TestEnv(t *testing.T) {
	k, p, run := setup(t)
	run.Context = map[string]any{"x": 1}
	env := Env(k, p, run)
	assert.Equal(t, map[string]any{"x": 1}, env["context"])
	assert.Equal(t, map[string]any{"id": "p/7/1", "pipeline": "p", "stage": "g"}, env["run"])
	assert.Equal(t, map[string]any{"repo": "o/r", "number": 7}, env["subject"])
	assert.Equal(t, map[string]any{"k": "v"}, env["outputs"], "the current stage's outputs")
	assert.Equal(t, 2, env["stages"].(map[string]any)["g"].(map[string]any)["attempt"])
	assert.Equal(t, []any{"coder"}, env["agents"])
	assert.Equal(t, "kind's own", env["issue"], "the subject kind adds its own")
	assert.NotContains(t, env, "trigger", "expressions do not read the event")
	assert.Contains(t, TemplateEnv(k, p, run), "trigger")
	run.Context["x"] = 2
	assert.Equal(t, 1, env["context"].(map[string]any)["x"], "the env is a copy")
}

func TestStart(t *testing.T) {
	k, p, run := setup(t)
	Start(k, p, run, map[string]any{"from": "parent"})
	assert.Equal(t, map[string]any{"title": "Add login", "from": "parent"}, run.Context)
	require.Len(t, k.log, 1)
	assert.Contains(t, k.log[0], `context "broken"`)
	assert.Contains(t, k.log[0], "left out")
	assert.Equal(t, "Add login!", run.Variables["shout"])
}

func TestConditions(t *testing.T) {
	k, p, _ := setup(t)
	s := p.Stage("g")
	status := map[string]model.GateStatus{"a": model.GatePass, "b": model.GateFail, "c": model.GatePending, "d": model.GatePass}
	check := func(c lang.Condition, _ *model.Facts) model.GateResult {
		return model.GateResult{Status: status[c.Check], Message: c.Check + " says so", Who: "who-" + c.Check}
	}
	rs, blocked, failed := Conditions(s, k.facts, check)
	assert.False(t, blocked, "b is optional, and d passes the group")
	assert.False(t, failed)
	require.Len(t, rs, 3)
	assert.Equal(t, model.GateResult{Check: "b", Status: model.GateFail, Message: "b says so", Who: "who-b", Optional: true}, rs[1])
	assert.Equal(t, "any_of(c, d)", rs[2].Check)

	status["d"], status["a"] = model.GateFail, model.GatePending
	rs, blocked, failed = Conditions(s, k.facts, check)
	assert.True(t, blocked)
	assert.False(t, failed, "c may still pass the group")
	assert.Equal(t, "one of these must hold: c: c says so; d: d says so", rs[2].Message)
	assert.Equal(t, "who-c, or who-d", rs[2].Who)

	status["c"] = model.GateFail
	_, _, failed = Conditions(s, k.facts, check)
	assert.True(t, failed, "every condition of the group failed")
}
