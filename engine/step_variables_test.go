package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/internal/core"
	"github.com/org/pipeline-action/engine/internal/scope"
	"github.com/org/pipeline-action/engine/lang"
)

// variablesYAML: triage keeps a run variable from the trigger, sets another, and shares
// two values with the subject; release, a later run of another pipeline, reads them.
const variablesYAML = `version: 1
pipelines:
  triage:
    priority: 10
    trigger: {event: pull_request.opened}
    variables:
      first_title: "{{ trigger.pull_request.title }}"
      tries: 0
    stages:
      - id: note
        type: action
        action: set_variable
        config: {name: tries, value: "{{ variables.tries + 1 }}"}
        on_success: mark
      - id: mark
        type: action
        action: set_shared
        config: {name: triaged_by, value: "{{ run.pipeline }}:{{ variables.tries }}"}
        on_success: complete
    on_complete:
      - set_shared: {name: last_title, value: "{{ variables.first_title }}"}
      - set_variable: {name: tries, value: 7}
  release:
    trigger:
      event: pull_request.labeled
      conditions: {label: release}
    variables:
      tries: 100
    stages:
      - id: say
        type: action
        action: comment
        config: {body: "by {{ shared.triaged_by }}; title {{ shared.last_title }}; tries {{ variables.tries }}; shared tries {{ shared.tries ?? 'none' }}"}
        on_success: complete
`

func loadYAML(t *testing.T, src string) *lang.Config {
	t.Helper()
	cfg, err := Load("p.yaml", []byte(src), fakeRegistry{})
	require.NoError(t, err)
	return cfg
}

func titled(title string, labels ...string) *model.Facts {
	f := prFacts(labels...)
	f.PR.Title = title
	return f
}

func TestVariablesPerRunAndShared(t *testing.T) {
	cfg := loadYAML(t, variablesYAML)
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, titled("Add caching"), t0)
	require.Empty(t, res.Effects)
	var triage *model.Run
	for _, r := range res.State.Runs {
		if r.Pipeline == "triage" {
			triage = r
		}
	}
	require.NotNil(t, triage)
	assert.Equal(t, model.RunCompleted, triage.Status)
	assert.Equal(t, map[string]any{"first_title": "Add caching", "tries": float64(7)}, triage.Variables,
		"computed once at the start; set_variable by the stage, then by on_complete")
	assert.Equal(t, map[string]any{"triaged_by": "triage:1", "last_title": "Add caching"}, res.State.Shared)
	whys := ""
	for _, h := range triage.History {
		whys += h.Why + "\n"
	}
	assert.Contains(t, whys, `shared variable triaged_by set to "triage:1"`)

	// The title changes later; release starts on a label and reads the shared values. Its own
	// `tries` is its own: the two namespaces do not mix, nor do two pipelines' variables.
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled", Label: "release"}, titled("Renamed", "release"), t0.Add(time.Hour))
	require.Len(t, res.Effects, 1)
	assert.Equal(t, "by triage:1; title Add caching; tries 100; shared tries none", res.Effects[0].Body)
}

func TestVariablesKeptFromTheStartAndOldState(t *testing.T) {
	cfg := loadYAML(t, `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    variables:
      title: "{{ trigger.pull_request.title }}"
    stages:
      - id: wait
        type: gate
        conditions: [{check: label_present, label: go}]
        on_pass: say
      - id: say
        type: action
        action: comment
        config: {body: "title was {{ variables.title }}"}
        on_success: complete
`)
	cfg.Pipelines[0].Stages[0].Conditions[0].Eval = labelCheck("go")
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, titled("First"), t0)
	run := res.State.Runs[0]
	require.Equal(t, "wait", run.Stage)
	assert.Equal(t, map[string]any{"title": "First"}, run.Variables)

	// A state written before variables were kept: they are computed when read, as before.
	b, err := json.Marshal(res.State)
	require.NoError(t, err)
	old := strings.Replace(string(b), `,"variables":{"title":"First"}`, "", 1)
	require.NotContains(t, old, `"variables"`)
	var st model.State
	require.NoError(t, json.Unmarshal([]byte(old), &st))
	require.Nil(t, st.Runs[0].Variables)
	require.Nil(t, st.Shared)
	fromOld := Step(cfg, &st, model.Input{Key: "k2", Event: "pull_request.labeled", Label: "go"}, titled("Second", "go"), t0.Add(time.Hour))
	require.Len(t, fromOld.Effects, 1, "%v %+v", fromOld.Log, fromOld.State.Runs[0])
	assert.Equal(t, "title was Second", fromOld.Effects[0].Body)

	// Kept in the run: the title at the start, whatever it is now.
	kept := Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled", Label: "go"}, titled("Second", "go"), t0.Add(time.Hour))
	require.Len(t, kept.Effects, 1)
	assert.Equal(t, "title was First", kept.Effects[0].Body)
}

func TestSetVariableRefusesWhatItCannotKeep(t *testing.T) {
	cfg := loadYAML(t, `version: 1
pipelines:
  p:
    trigger: {event: pull_request.opened}
    stages:
      - id: big
        type: action
        action: set_shared
        config: {name: body, value: "{{ trigger.pull_request.title }}"}
        on_success: complete
`)
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, titled(strings.Repeat("x", model.MaxVariableBytes)), t0)
	run := res.State.Runs[0]
	// The pipeline's variables are bounded alike.
	cfg.Pipelines[0].Variables = []lang.KeyValue{{Key: "title", Value: lang.Value{Kind: lang.KindString, Template: mustTemplate("{{ trigger.pull_request.title }}")}}}
	big := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, titled(strings.Repeat("x", model.MaxVariableBytes)), t0)
	assert.Contains(t, big.Log, `run p/7/1: variable "title": the value is 2050 bytes of JSON, more than 2048; left out`)
	assert.Empty(t, big.State.Runs[0].Variables)
	assert.Empty(t, scope.Env(scopeKernel{&eval{&core.Eval{Cfg: cfg, St: big.State, Facts: titled(strings.Repeat("x", model.MaxVariableBytes))}}}, cfg.Pipelines[0], big.State.Runs[0])["variables"],
		"nor computed when read")
	assert.Equal(t, model.RunFailed, run.Status)
	assert.Contains(t, run.Message, `set_shared "body": the value is 2050 bytes of JSON, more than 2048`)
	assert.Nil(t, res.State.Shared)

	full := func() *model.State {
		st := &model.State{Version: 1, Shared: map[string]any{}}
		for i := 0; len(st.Shared) < model.MaxVariables; i++ {
			st.Shared[fmt.Sprintf("v%d", i)] = i
		}
		return st
	}
	res = Step(cfg, full(), model.Input{Key: "k1", Event: "pull_request.opened"}, titled("short"), t0)
	assert.Contains(t, res.State.Runs[0].Message, `there are 50 shared variables already`)
	st := full()
	delete(st.Shared, "v0")
	st.Shared["body"] = "old"
	res = Step(cfg, st, model.Input{Key: "k1", Event: "pull_request.opened"}, titled("short"), t0)
	assert.Equal(t, model.RunCompleted, res.State.Runs[0].Status, "a name already kept may be set again")
	assert.Equal(t, "short", res.State.Shared["body"])
	assert.Len(t, res.State.Shared, model.MaxVariables)
}

// envCheck is a check over the run's env, as an expr gate over shared.* or variables.* is.
type envCheck func(lang.Env) bool

func (c envCheck) Evaluate(*model.Facts) model.GateResult {
	return model.GateResult{Status: model.GateError, Message: "needs the run"}
}
func (c envCheck) EvaluateRun(_ *model.Facts, env lang.Env) model.GateResult {
	if c(env) {
		return model.GateResult{Status: model.GatePass}
	}
	return model.GateResult{Status: model.GatePending, Message: "not yet"}
}

func TestGatesReadSharedAndRunVariables(t *testing.T) {
	cfg := loadYAML(t, variablesYAML)
	// release waits for triage's shared value and its own variable, as an expr gate would.
	rel := cfg.Pipelines[1]
	rel.Stages = append([]*lang.Stage{{ID: "wait", Type: lang.StageGate, OnPass: "say", Conditions: []lang.Condition{{Check: "expr",
		Eval: envCheck(func(env lang.Env) bool {
			shared, _ := env["shared"].(map[string]any)
			vars, _ := env["variables"].(map[string]any)
			return shared["triaged_by"] == "triage:1" && vars["tries"] == float64(100)
		})}}}}, rel.Stages...)
	// Labelled before triage ran: release waits at its gate.
	st := &model.State{Version: 1}
	res := Step(cfg, st, model.Input{Key: "k0", Event: "pull_request.labeled", Label: "release"}, titled("Add caching", "release"), t0)
	require.Len(t, res.State.Runs, 1)
	assert.Equal(t, "wait", res.State.Runs[0].Stage)
	// triage runs and shares; the next event lets release through.
	res = Step(cfg, res.State, model.Input{Key: "k1", Event: "pull_request.opened"}, titled("Add caching", "release"), t0.Add(time.Minute))
	var release *model.Run
	for _, r := range res.State.Runs {
		if r.Pipeline == "release" {
			release = r
		}
	}
	require.NotNil(t, release)
	assert.Equal(t, "say", release.Stage, "the gate read shared.triaged_by and variables.tries")
}
