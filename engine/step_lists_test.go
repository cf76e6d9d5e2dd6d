package engine

import (
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/engine/lang"
)

func strValue(s string) lang.Value {
	v := lang.Value{Kind: lang.KindString, Scalar: s}
	if t := mustTemplate(s); !t.IsConstant() {
		v.Template = t
	}
	return v
}

func mapValue(kvs ...string) lang.Value {
	v := lang.Value{Kind: lang.KindMap}
	for i := 0; i < len(kvs); i += 2 {
		v.Map = append(v.Map, lang.KeyValue{Key: kvs[i], Value: strValue(kvs[i+1])})
	}
	return v
}

// listConfig is a gate on label "ok" then complete, or fail on label "bad", with lists.
func listConfig(onComplete, onError []lang.ActionItem) *lang.Config {
	return &lang.Config{Version: 1,
		Groups: []*lang.Group{{Name: "maintainers", Users: []string{"alice"}}},
		Pipelines: []*lang.Pipeline{{
			Name: "p", Trigger: lang.Trigger{Event: "pull_request.opened"},
			Context: []lang.KeyValue{{Key: "pr_number", Value: strValue("{{ trigger.pull_request.number }}")}},
			Stages: []*lang.Stage{{ID: "g", Type: lang.StageGate, OnPass: lang.TargetComplete, OnFail: lang.TargetFail, Conditions: []lang.Condition{
				{Check: "ok", Eval: checkFunc(func(f *model.Facts) model.GateResult {
					switch {
					case f.PR.HasLabel("bad"):
						return model.GateResult{Status: model.GateFail, Message: "bad"}
					case f.PR.HasLabel("ok"):
						return model.GateResult{Status: model.GatePass}
					}
					return model.GateResult{Status: model.GatePending}
				})},
			}}},
			OnComplete: onComplete,
			OnError:    onError,
		}}}
}

func TestOnCompleteListRunsOnceWhenTheRunCompletes(t *testing.T) {
	cfg := listConfig([]lang.ActionItem{
		{Action: lang.ActionCloseIssue, Args: strValue("{{ context.pr_number | linked_issue }}")},
		{Action: lang.ActionComment, Args: mapValue("target", "pr", "message", "Merged into {{ github.pr.base }}.")},
		{Action: lang.ActionLabel, Args: lang.Value{Kind: lang.KindList, List: []lang.Value{strValue("done")}}},
	}, []lang.ActionItem{{Action: lang.ActionNotify, Args: strValue("maintainers")}})

	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Empty(t, res.Effects, "the run waits: no list yet")

	f := prFacts("ok")
	f.PR.LinkedIssues = []int{12}
	res = Step(cfg, res.State, model.Input{Key: "k2", Event: "pull_request.labeled"}, f, t0)
	require.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	require.Len(t, res.Effects, 3)
	assert.Equal(t, model.Effect{Key: "p/7/1/on_complete/1/close_issue", Run: "p/7/1", Stage: "on_complete", Kind: model.EffectCloseIssue, Number: 12}, res.Effects[0])
	assert.Equal(t, model.EffectComment, res.Effects[1].Kind)
	assert.Equal(t, "Merged into main.", res.Effects[1].Body)
	assert.True(t, res.Effects[1].WriteAhead, "posted only by the invocation whose save of the final state won")
	assert.Equal(t, model.EffectLabel, res.Effects[2].Kind)
	assert.Equal(t, []string{"done"}, res.Effects[2].Labels)
	assert.Empty(t, res.State.Runs[0].Intents)

	// The outcomes do not move the finished run, and a later event asks for nothing again.
	settled := Settle(cfg, res.State, model.Input{Key: "k2"}, []model.Outcome{{Key: res.Effects[1].Key}}, f, t0)
	assert.Empty(t, settled.Effects)
	again := Step(cfg, settled.State, model.Input{Key: "k3", Event: "pull_request.labeled"}, f, t0)
	assert.Empty(t, again.Effects)
}

func TestOnCompleteCloseIssueOnAPullRequestThatClosesNone(t *testing.T) {
	cfg := listConfig([]lang.ActionItem{{Action: lang.ActionCloseIssue, Args: strValue("{{ context.pr_number | linked_issue }}")}}, nil)
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("ok"), t0)
	require.Equal(t, model.RunCompleted, res.State.Runs[0].Status)
	assert.Empty(t, res.Effects)
	assert.Contains(t, res.Log, "run p/7/1: on_complete item 1 (close_issue at 0:0): no issue to close ({{ context.pr_number | linked_issue }} gives none: the pull request closes no issue)")
}

func TestOnErrorListRunsWhenTheRunFails(t *testing.T) {
	cfg := listConfig(nil, []lang.ActionItem{
		{Action: lang.ActionLabel, Args: strValue("needs-human")},
		{Action: lang.ActionNotify, Args: mapValue("target", "maintainers", "message", "run {{ run.id }} failed")},
		{Action: lang.ActionNotify, Args: strValue("nobody here")},
	})
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts("bad"), t0)
	run := res.State.Runs[0]
	require.Equal(t, model.RunFailed, run.Status)
	require.Len(t, res.Effects, 2)
	assert.Equal(t, []string{"needs-human"}, res.Effects[0].Labels)
	assert.Equal(t, "@alice run p/7/1 failed", res.Effects[1].Body)
	assert.Contains(t, run.Message, `on_error item 3 (notify): notification target "nobody here" is neither`)
}

// A run stopped at what Step cannot execute did not fail as its pipeline says: its
// on_error list does not run.
func TestListsDoNotRunForWhatStepCannotExecute(t *testing.T) {
	cfg := listConfig(nil, []lang.ActionItem{{Action: lang.ActionLabel, Args: strValue("needs-human")}})
	cfg.Pipelines[0].Stages[0].Type = "loop"
	res := Step(cfg, nil, model.Input{Key: "k1", Event: "pull_request.opened"}, prFacts(), t0)
	assert.Equal(t, model.RunFailed, res.State.Runs[0].Status)
	assert.Contains(t, res.State.Runs[0].Message, `not supported yet: stage type "loop"`)
	assert.Empty(t, res.Effects)
}
